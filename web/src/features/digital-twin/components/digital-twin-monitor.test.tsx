import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClientProvider } from '@tanstack/react-query'
import { createQueryClient } from '@/lib/api'
import { HeadingLevelContext } from '@/components/heading'
import { Toaster } from '@/components/toaster'
import { resetToastsForTests } from '@/hooks/use-toast'
import { FakeSocket } from '@/test/fake-socket'
import { DigitalTwinMonitor } from './digital-twin-monitor'

// The component against a scripted server: proves the wiring (which calls
// go out, what they carry, what is shown) that the pure tests cannot.
const reading = (value: number, unit: string) => ({ value, unit })
const pump = {
  id: 'bp-2',
  name: 'Booster Pump BP-2',
  manufacturer: 'Grundfos',
  model: 'Hydro MPC-E',
  serialNumber: 'GRF-1',
  type: 'booster-pump',
  status: 'operational',
  alertLevel: 'warning',
  communicationProtocol: 'Modbus TCP',
  protocolVersion: '1.1b3',
  connectionParameters: { functionCode: 3, startAddress: 0, registerCount: 14 },
  syncStatus: 'synced',
  syncErrorCount: 0,
  operatingHours: 4870,
  sensorData: {
    temperature: reading(48, '°C'),
    pressure: reading(520, 'kPa'),
    vibration: reading(2.2, 'mm/s'),
    current: reading(41, 'A'),
    voltage: reading(460, 'V'),
    rpm: reading(1760, 'rpm'),
    efficiency: reading(79, '%'),
  },
  lastUpdated: '2026-11-20T08:00:00Z',
  lastMaintenance: '2026-09-01T00:00:00Z',
  nextMaintenanceDate: '2026-12-01T00:00:00Z',
  maintenanceSchedule: { intervalDays: 90, tasks: [{ task: 'Check seals', frequency: 'quarterly', trade: 'plumbing' }] },
  supportedTradeTypes: ['plumbing'],
}
const odd = {
  ...pump,
  id: 'x-1',
  name: 'Mystery Unit',
  status: 'standby',
  alertLevel: 'normal',
  sensorData: { temperature: 20 },
  supportedTradeTypes: ['hvac', 'solar-wind', 'boilermaker'],
  maintenanceSchedule: { intervalDays: 30, tasks: [{ task: 'Change filters', frequency: 'monthly', trade: 'hvac' }] },
}
const trades = [
  { id: 'plumbing', name: 'Plumbing' },
  { id: 'hvac', name: 'HVAC' },
  { id: 'solar-wind', name: 'Solar & Wind' },
]

const instructor = { id: 'u-1', displayName: 'Ines', guest: false, email: 'ines@example.com', role: 'instructor', organisation: { id: 'o-1', name: 'Northside' } }
const guest = { id: 'g-1', displayName: 'Guest 1a2b', guest: true, email: null, role: 'guest', organisation: null }
const learner = { ...instructor, displayName: 'Lee', role: 'learner' }

/** A scripted server; `me` is who /api/me says the caller is (it may change, as after signing out elsewhere). */
function server(who: { me: object; retired?: string[]; owner?: string } = { me: instructor }) {
  let current = { ...pump, organisationId: who.owner }
  const calls: { method: string; url: string; body?: unknown }[] = []
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET'
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    calls.push({ method, url, body })
    if (url === '/api/me') return json(who.me)
    if (url === '/api/digital-twin/equipment') return json([current, odd].filter((e) => !who.retired?.includes(e.id)))
    if (url === '/api/trade-categories') return json(trades)
    if (url === '/api/digital-twin/equipment-alerts')
      return json([{ id: 'a1', equipmentId: 'bp-2', equipmentName: pump.name, level: 'warning', sensor: 'efficiency', reading: 79, threshold: 80, comparison: 'below', unit: '%', message: 'efficiency loss', timestamp: '2026-11-20T08:00:00Z' }])
    if (url === '/api/digital-twin/equipment/bp-2/data-streams')
      return json([{ id: 'bp-2:temperature', streamName: 'BP-2 Temperature', value: 48, previousValue: 47, unit: '°C', qualityIndicator: 'good', timestamp: '2026-11-20T08:00:00Z' }])
    // Twin writes: instructors and admins only, as the server's route table says.
    if (method === 'POST') {
      const me = who.me as typeof guest
      if (me.guest) return json({ message: 'sign in first: this needs an account' }, 401)
      if (me.role !== 'instructor' && me.role !== 'admin') return json({ message: `this needs the role of instructor or admin in your organisation; you are ${me.role}` }, 403)
    }
    if (url === '/api/digital-twin/equipment/bp-2/sensor-data') {
      const sd = (body as { sensorData: Record<string, number> }).sensorData
      current = { ...current, sensorData: Object.fromEntries(Object.entries(sd).filter(([k]) => k !== 'timestamp').map(([k, v]) => [k, reading(v, pump.sensorData[k as 'rpm'].unit)])) as typeof pump.sensorData }
      return json({ equipment: current, alerts: [] })
    }
    if (url === '/api/digital-twin/equipment/bp-2/simulate-communication') {
      const data = (body as { data: { registerCount: number } }).data
      if (data.registerCount > 125) return json({ message: 'data.registerCount must be 1 to 125' }, 400)
      return json({ protocol: 'modbus', device: '127.0.0.1:40123', request: { direction: 'request', length: 12, hex: '0001000000060103000000 0e', summary: 'Read Holding Registers: 14 from address 0', fields: [{ name: 'Function Code', value: '3' }] }, response: { direction: 'response', length: 4, hex: '00010000', fields: [{ name: 'Byte Count', value: '28' }] }, result: [{ address: 0, name: 'temperature', value: 48, unit: '°C' }] })
    }
    return json({ message: 'not found' }, 404)
  })
  vi.stubGlobal('fetch', fetchMock)
  return calls
}

function renderMonitor(headingLevel: 2 | 3 = 2) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <HeadingLevelContext.Provider value={headingLevel}>
        <DigitalTwinMonitor />
      </HeadingLevelContext.Provider>
    </QueryClientProvider>,
  )
}

beforeEach(() => {
  FakeSocket.reset({ opensItself: true })
  vi.stubGlobal('WebSocket', FakeSocket)
})
afterEach(() => vi.unstubAllGlobals())

// Generous timeout: the machine is shared, and user-event drives Radix step by step.
describe('DigitalTwinMonitor', { timeout: 20_000 }, () => {
  it('watches the twins on /ws and shows an equipment_update at once: the reading, and the twin alerts it raises now', async () => {
    const calls = server()
    renderMonitor()
    const pumpCard = (await screen.findByRole('button', { name: pump.name })).closest('[data-testid="equipment-card"]') as HTMLElement
    await screen.findByTestId('equipment-alert')
    await waitFor(() => expect(FakeSocket.last().messages).toContainEqual(expect.objectContaining({ type: 'watch_equipment' })))
    expect(screen.getByTestId('twin-live')).toHaveTextContent('Live: readings show as they are stored.')
    const reads = calls.filter((c) => c.url === '/api/digital-twin/equipment').length

    const shaking = { id: 'bp-2:vibration:above', equipmentId: 'bp-2', level: 'critical', sensor: 'vibration', reading: 9.5, threshold: 7.1, comparison: 'above', unit: 'mm/s', message: 'vibration high', timestamp: '2026-11-20T08:01:00Z' }
    FakeSocket.last().receive({
      type: 'equipment_update',
      timestamp: '2026-11-20T08:01:00Z',
      payload: { equipment: { ...pump, sensorData: { ...pump.sensorData, vibration: reading(9.5, 'mm/s') } }, alerts: [shaking] },
    })
    expect(await within(pumpCard).findByText('9.5 mm/s')).toBeInTheDocument()
    // Its earlier efficiency alert is gone: the update carries the twin's alerts as they are now.
    await waitFor(() => expect(screen.getAllByTestId('equipment-alert')).toHaveLength(1))
    expect(screen.getByTestId('equipment-alert')).toHaveTextContent('Reading9.5 mm/s')
    expect(calls.filter((c) => c.url === '/api/digital-twin/equipment').length).toBe(reads)

    // A lost connection says the page is back to polling.
    FakeSocket.last().drop()
    expect(screen.getByTestId('twin-live')).toHaveTextContent('Refreshing every 5 seconds')
  })

  it('leads instructors and admins to manage the equipment; others only watch', async () => {
    server()
    const { unmount } = renderMonitor()
    expect(await screen.findByRole('link', { name: 'Manage equipment' })).toHaveAttribute('href', '/digital-twin/manage')
    unmount()
    const calls = server({ me: learner })
    renderMonitor()
    await screen.findByRole('button', { name: pump.name })
    await waitFor(() => expect(calls.some((c) => c.url === '/api/me')).toBe(true))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.queryByRole('link', { name: 'Manage equipment' })).not.toBeInTheDocument()
  })

  it('shows cards with 4 readings, the hours bar, unknown status, and the alerts', async () => {
    server()
    renderMonitor()
    const pumpCard = (await screen.findByRole('button', { name: pump.name })).closest('[data-testid="equipment-card"]') as HTMLElement
    expect(within(pumpCard).getAllByRole('definition')).toHaveLength(4)
    expect(within(pumpCard).getByText('48 °C')).toBeInTheDocument()
    expect(within(pumpCard).queryByText('1,760 rpm')).toBeNull()
    expect(within(pumpCard).getByRole('progressbar')).toHaveAttribute('aria-valuenow', String((4870 / 10000) * 100))
    const oddCard = screen.getByRole('button', { name: 'Mystery Unit' }).closest('[data-testid="equipment-card"]') as HTMLElement
    expect(within(oddCard).getByText('Unknown')).toBeInTheDocument()
    const alert = await screen.findByTestId('equipment-alert')
    expect(alert).toHaveTextContent('Reading79%')
    expect(alert).toHaveTextContent('Threshold (below)80%')
  })

  it('fetches streams only once a twin is selected, and Update Sensors posts all seven readings', async () => {
    const calls = server()
    const user = userEvent.setup()
    renderMonitor()
    const button = await screen.findByRole('button', { name: pump.name })
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/equipment-alerts'))).toBe(true))
    expect(calls.some((c) => c.url.includes('data-streams'))).toBe(false)

    await user.click(button)
    const panel = screen.getByTestId('equipment-detail')
    expect(within(panel).getAllByRole('tab').map((t) => t.textContent)).toEqual(['Overview', 'Sensors', 'Protocols', 'Maintenance'])
    await waitFor(() => expect(calls.some((c) => c.url === '/api/digital-twin/equipment/bp-2/data-streams')).toBe(true))

    await user.click(within(panel).getByRole('tab', { name: 'Sensors' }))
    expect(await within(panel).findByText('BP-2 Temperature')).toBeInTheDocument()
    await user.click(within(panel).getByRole('button', { name: 'Update Sensors' }))
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true))
    const post = calls.find((c) => c.method === 'POST')!
    const sd = (post.body as { sensorData: Record<string, number> }).sensorData
    expect(Object.keys(sd).sort()).toEqual(['current', 'efficiency', 'pressure', 'rpm', 'temperature', 'timestamp', 'vibration', 'voltage'])
    const shown = sd.rpm.toLocaleString('en-US', { maximumFractionDigits: 2 }) + ' rpm'
    await waitFor(() => expect(within(screen.getByTestId('detail-readings')).getByText(shown)).toBeInTheDocument())
  })

  it("names a twin's trades as the catalog does (HVAC, not Hvac), and a trade the catalog lacks by its id", async () => {
    server()
    const user = userEvent.setup()
    renderMonitor()
    await user.click(await screen.findByRole('button', { name: odd.name }))
    const panel = screen.getByTestId('equipment-detail')
    const trades = within(panel).getByRole('heading', { name: 'Supported trades' }).nextElementSibling as HTMLElement
    await waitFor(() => expect(within(trades).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['HVAC', 'Solar & Wind', 'boilermaker']))
    await user.click(within(panel).getByRole('tab', { name: 'Maintenance' }))
    const task = (await within(panel).findByText('Change filters')).closest('li') as HTMLElement
    expect(within(task).getByText('HVAC')).toBeInTheDocument()
  })

  it('a twin retired elsewhere while open: its panel closes, its streams are no longer asked for, and focus goes to the list', async () => {
    const who = { me: instructor, retired: [] as string[] }
    const calls = server(who)
    const user = userEvent.setup()
    renderMonitor()
    await user.click(await screen.findByRole('button', { name: pump.name }))
    await waitFor(() => expect(within(screen.getByTestId('equipment-detail')).getByRole('heading', { name: pump.name })).toHaveFocus())
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/bp-2/data-streams'))).toBe(true))

    who.retired.push('bp-2')
    // The next poll of the list (every 5 s) no longer has it.
    await waitFor(() => expect(screen.queryByTestId('equipment-detail')).not.toBeInTheDocument(), { timeout: 8000 })
    expect(screen.getByRole('heading', { name: 'Equipment (1)' })).toHaveFocus()
    // Until the list's next poll, 5 s on, streams polled every 2 s would have been asked for twice more.
    const streamCalls = () => calls.filter((c) => c.url.endsWith('/bp-2/data-streams')).length
    const [asked, listReads] = [streamCalls(), calls.filter((c) => c.url === '/api/digital-twin/equipment').length]
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/digital-twin/equipment').length).toBeGreaterThan(listReads), { timeout: 8000 })
    expect(streamCalls()).toBe(asked)
  })

  it("Test Protocol shows both frames, and a 400's message", async () => {
    server()
    const user = userEvent.setup()
    renderMonitor()
    await user.click(await screen.findByRole('button', { name: pump.name }))
    const panel = screen.getByTestId('equipment-detail')
    await user.click(within(panel).getByRole('tab', { name: 'Protocols' }))
    expect(within(panel).getByLabelText('Register count')).toHaveValue('14')
    await user.click(within(panel).getByRole('button', { name: 'Test Protocol' }))
    expect((await within(panel).findByTestId('frame-request')).querySelector('pre')?.textContent).toMatch(/^0000 {2}00 01 00 00 00 06 01 03 00 00 00 0e /)
    expect(within(panel).getByTestId('frame-request')).toHaveTextContent('Function Code3')
    expect(within(panel).getByTestId('frame-response')).toHaveTextContent('Byte Count28')
    expect(within(panel).getByTestId('protocol-result')).toHaveTextContent('temperature')

    await user.clear(within(panel).getByLabelText('Register count'))
    await user.type(within(panel).getByLabelText('Register count'), '500')
    await user.click(within(panel).getByRole('button', { name: 'Test Protocol' }))
    expect(await within(panel).findByRole('alert')).toHaveTextContent('data.registerCount must be 1 to 125')
    expect(within(panel).queryByTestId('frame-request')).toBeNull()
  })

  it.each([
    ['a guest', guest, 'Sign in as an instructor or admin to drive equipment.'],
    ['a signed-in learner', learner, 'Sign in as an instructor or admin to drive equipment. You are signed in as Lee, a learner.'],
  ])('for %s, Update Sensors and Test Protocol are disabled with the reason and a link to sign in', async (_, me, explanation) => {
    const calls = server({ me })
    const user = userEvent.setup()
    renderMonitor()
    await user.click(await screen.findByRole('button', { name: pump.name }))
    const panel = screen.getByTestId('equipment-detail')
    const update = within(panel).getByRole('button', { name: 'Update Sensors' })
    await waitFor(() => expect(within(panel).getByTestId('drive-notice')).toHaveTextContent(explanation))
    expect(update).toBeDisabled()
    expect(update).toHaveAccessibleDescription(explanation)
    expect(within(within(panel).getByTestId('drive-notice')).getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in')

    await user.click(within(panel).getByRole('tab', { name: 'Protocols' }))
    const test = within(panel).getByRole('button', { name: 'Test Protocol' })
    expect(test).toBeDisabled()
    expect(test).toHaveAccessibleDescription(explanation)
    // Enter in a field does not send the form either.
    await user.type(within(panel).getByLabelText('Start address'), '{Enter}')
    expect(calls.filter((c) => c.method === 'POST')).toEqual([])
  })

  it("for an instructor, another organisation's twin cannot be driven, with the reason and no sign-in link", async () => {
    const calls = server({ me: instructor, owner: 'o-2' })
    const user = userEvent.setup()
    renderMonitor()
    await user.click(await screen.findByRole('button', { name: pump.name }))
    const panel = screen.getByTestId('equipment-detail')
    const explanation = `${pump.name} belongs to another organisation: only its instructors and admins drive it.`
    await waitFor(() => expect(within(panel).getByTestId('drive-notice')).toHaveTextContent(explanation))
    expect(within(panel).getByRole('button', { name: 'Update Sensors' })).toBeDisabled()
    expect(within(within(panel).getByTestId('drive-notice')).queryByRole('link')).toBeNull()
    await user.click(within(panel).getByRole('tab', { name: 'Protocols' }))
    expect(within(panel).getByRole('button', { name: 'Test Protocol' })).toHaveAccessibleDescription(explanation)
    expect(calls.filter((c) => c.method === 'POST')).toEqual([])
  })

  it('for an instructor, no explanation is shown; while /api/me is on its way the controls wait', async () => {
    let answerMe: (r: Response) => void = () => {}
    server()
    const scripted = globalThis.fetch as unknown as (url: string, init?: RequestInit) => Promise<Response>
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init?: RequestInit) => (url === '/api/me' ? new Promise<Response>((resolve) => (answerMe = resolve)) : scripted(url, init))),
    )
    const user = userEvent.setup()
    renderMonitor()
    await user.click(await screen.findByRole('button', { name: pump.name }))
    const panel = screen.getByTestId('equipment-detail')
    expect(within(panel).getByRole('button', { name: 'Update Sensors' })).toBeDisabled()
    expect(within(panel).queryByTestId('drive-notice')).toBeNull()
    answerMe(new Response(JSON.stringify(instructor), { headers: { 'Content-Type': 'application/json' } }))
    await waitFor(() => expect(within(panel).getByRole('button', { name: 'Update Sensors' })).toBeEnabled())
    expect(within(panel).queryByTestId('drive-notice')).toBeNull()
  })

  it("a 401 from Test Protocol (signed out elsewhere) shows the server's message, then why the controls are disabled", async () => {
    const who = { me: instructor as object }
    const calls = server(who)
    const user = userEvent.setup()
    renderMonitor()
    await user.click(await screen.findByRole('button', { name: pump.name }))
    const panel = screen.getByTestId('equipment-detail')
    await user.click(within(panel).getByRole('tab', { name: 'Protocols' }))
    await waitFor(() => expect(within(panel).getByRole('button', { name: 'Test Protocol' })).toBeEnabled())
    who.me = guest
    const meCalls = calls.filter((c) => c.url === '/api/me').length
    await user.click(within(panel).getByRole('button', { name: 'Test Protocol' }))
    expect(await within(panel).findByRole('alert')).toHaveTextContent('sign in first: this needs an account')
    await waitFor(() => expect(within(panel).getByRole('button', { name: 'Test Protocol' })).toBeDisabled())
    expect(calls.filter((c) => c.url === '/api/me').length).toBe(meCalls + 1)
    expect(within(panel).getAllByTestId('drive-notice')[0]).toHaveTextContent('Sign in as an instructor or admin to drive equipment.')
    expect(within(panel).getByRole('alert')).toHaveTextContent('sign in first: this needs an account')
  })

  it("a 403 from Update Sensors (role taken away) shows the server's message, then why the button is disabled", async () => {
    const who = { me: instructor as object }
    server(who)
    resetToastsForTests()
    const user = userEvent.setup()
    renderMonitor()
    render(<Toaster />)
    await user.click(await screen.findByRole('button', { name: pump.name }))
    const panel = screen.getByTestId('equipment-detail')
    await waitFor(() => expect(within(panel).getByRole('button', { name: 'Update Sensors' })).toBeEnabled())
    who.me = learner
    await user.click(within(panel).getByRole('button', { name: 'Update Sensors' }))
    await waitFor(() => expect(within(panel).getByRole('button', { name: 'Update Sensors' })).toBeDisabled())
    expect(within(panel).getByTestId('drive-notice')).toHaveTextContent('You are signed in as Lee, a learner.')
    expect(await screen.findByText('Sensor update failed')).toBeInTheDocument()
    expect(screen.getByText('this needs the role of instructor or admin in your organisation; you are learner')).toBeInTheDocument()
  })

  it('places every heading below the level it is given, for embedding', async () => {
    server()
    const user = userEvent.setup()
    renderMonitor(3)
    await user.click(await screen.findByRole('button', { name: pump.name }))
    expect(screen.getByRole('heading', { level: 3, name: /^Equipment \(/ })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 3, name: /Equipment Alerts/ })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 3, name: pump.name })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 4, name: 'Mystery Unit' })).toBeInTheDocument()
    expect(screen.queryAllByRole('heading', { level: 2 })).toHaveLength(0)
  })

  it("shows a failed load with the server's message and retries on request", async () => {
    let fail = true
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/api/digital-twin/equipment') return fail ? json({ message: 'database is unavailable' }, 503) : json([pump])
        return json([])
      }),
    )
    const user = userEvent.setup()
    renderMonitor()
    const alert = await screen.findByText(/Could not load equipment/)
    expect(alert).toHaveTextContent('Could not load equipment: database is unavailable')
    fail = false
    await user.click(screen.getByRole('button', { name: 'Retry' }))
    expect(await screen.findByRole('button', { name: pump.name })).toBeInTheDocument()
    expect(screen.getByText(/No active alerts/)).toBeInTheDocument()
  })
})
