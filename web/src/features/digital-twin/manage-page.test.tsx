import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { Providers } from '@/app/providers'
import userEvent from '@testing-library/user-event'
import { fakeApi, learnerMe, type FakeAnswer } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'
import * as answers from '@/test/server-answers'
import { resetToastsForTests } from '@/hooks/use-toast'
import ManageEquipmentPage from './manage-page'

// The page against a scripted server: what the form sends, and where the
// server's refusals show.
const instructor = { id: 'u-1', displayName: 'Ines', guest: false, email: 'ines@example.com', role: 'instructor', organisation: { id: 'o-1', name: 'Northside' } }
const demoTwin = answers.equipment({ connection: null, writableSensors: [], organisationId: 'o-1' })
// The seeded fleet's (no organisation) and another organisation's: on the monitor, not here.
const sharedTwin = answers.equipment({ id: 'chlr-1', name: 'Centrifugal Chiller CH-1', connection: null, writableSensors: [] })
const theirTwin = answers.equipment({ id: 'bp-9', name: 'Booster Pump BP-9', connection: null, writableSensors: [], organisationId: 'o-2' })
const realTwin = answers.equipment({
  id: 'ahu-3',
  name: 'Air Handler AHU-3',
  communicationProtocol: 'OPC-UA',
  syncStatus: 'error',
  connection: {
    address: 'opc.tcp://10.20.2.7:4840',
    securityPolicy: 'Basic256Sha256',
    securityMode: 'SignAndEncrypt',
    username: 'gateway',
    hasPassword: true,
    intervalMs: 500,
    timeoutMs: 2000,
    points: [{ sensor: 'temperature', nodeId: 'ns=2;s=SupplyTemp', scale: 1, offset: 0 }],
  },
  writableSensors: [],
  organisationId: 'o-1',
})

type Handler = Parameters<typeof fakeApi>[0][string]
function server(routes: Record<string, Handler> = {}, me: object = instructor) {
  return fakeApi({
    'GET /api/me': { body: me },
    'GET /api/digital-twin/equipment': { body: [sharedTwin, demoTwin, theirTwin, realTwin] },
    'GET /api/trade-categories': { body: answers.trades() },
    ...routes,
  })
}

/** The JSON bodies the page sent to method path. */
function sent(fetchMock: ReturnType<typeof fakeApi>, method: string, path: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([url, init]) => new URL(String(url), 'http://app.test').pathname === path && (init?.method ?? 'GET') === method)
    .map(([, init]) => JSON.parse(String(init?.body ?? 'null')))
}

beforeEach(() => resetToastsForTests())
afterEach(() => vi.unstubAllGlobals())

/** Fills a new Modbus TCP twin on a real device mapping temperature and (as int16 × 0.1) pressure. */
async function fillModbusTwin(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Name'), 'Panel LP-9')
  await user.type(screen.getByLabelText('Type'), 'panelboard')
  await user.type(screen.getByLabelText('Manufacturer'), 'Square D')
  await user.type(screen.getByLabelText('Model'), 'NF')
  await user.type(screen.getByLabelText('Serial number'), 'SQD-9')
  await user.click(await screen.findByRole('checkbox', { name: 'Electrical' }))
  await user.click(screen.getByRole('button', { name: 'Add task' }))
  await user.type(screen.getByLabelText('Task 1'), 'Infrared scan')
  await user.selectOptions(screen.getByLabelText('Frequency'), 'annual')
  expect(screen.getByLabelText('Communication protocol')).toHaveValue('Modbus TCP')
  await user.click(screen.getByRole('switch', { name: 'Connect to a real device' }))
  await user.type(screen.getByLabelText('Address'), '10.20.1.15:502')
  await user.clear(screen.getByLabelText('Unit id'))
  await user.type(screen.getByLabelText('Unit id'), '2')
  await user.click(screen.getByRole('button', { name: 'Add point' }))
  const rows = screen.getAllByTestId('point-row')
  expect(rows).toHaveLength(2)
  const second = within(rows[1])
  expect(second.getByLabelText('Sensor')).toHaveValue('pressure')
  expect(second.getByLabelText('Register')).toHaveValue('2')
  await user.selectOptions(second.getByLabelText('Data type'), 'int16')
  expect(second.queryByLabelText('Word order')).not.toBeInTheDocument()
  await user.clear(second.getByLabelText('Scale'))
  await user.type(second.getByLabelText('Scale'), '0.1')
}

const modbusBody = {
  name: 'Panel LP-9',
  manufacturer: 'Square D',
  model: 'NF',
  serialNumber: 'SQD-9',
  type: 'panelboard',
  supportedTradeTypes: ['electrical'],
  communicationProtocol: 'Modbus TCP',
  maintenanceSchedule: { intervalDays: 365, tasks: [{ task: 'Infrared scan', frequency: 'annual', trade: 'electrical' }] },
  connection: {
    address: '10.20.1.15:502',
    unitId: 2,
    intervalMs: 1000,
    timeoutMs: 2000,
    points: [
      { sensor: 'temperature', register: 0, registerType: 'holding', dataType: 'float32', wordOrder: 'high-first', scale: 1, offset: 0 },
      { sensor: 'pressure', register: 2, registerType: 'holding', dataType: 'int16', scale: 0.1, offset: 0 },
    ],
  },
  writableSensors: [],
}

describe('Manage Equipment', { timeout: 30_000 }, () => {
  it('lists the organisation’s twins with their protocol, device and sync status, each with Edit and Retire', async () => {
    server()
    renderWithApp(<ManageEquipmentPage />, '/digital-twin/manage')
    expect(await screen.findByRole('heading', { level: 2, name: 'Your equipment (2)' })).toBeInTheDocument()
    expect(screen.getByText(/The 1 shared demo twins/)).toBeInTheDocument()
    const list = await screen.findByRole('list', { name: 'Equipment' })
    const items = within(list).getAllByRole('listitem')
    expect(items).toHaveLength(2)
    expect(items[0]).toHaveTextContent('Main Distribution Panelboard LP-2A')
    expect(items[0]).toHaveTextContent('Modbus TCP')
    expect(items[0]).toHaveTextContent('Demo device')
    expect(items[1]).toHaveTextContent('OPC UA')
    expect(items[1]).toHaveTextContent('Real device at opc.tcp://10.20.2.7:4840')
    expect(items[1]).toHaveTextContent('Sync: Error')
    expect(within(items[1]).getByRole('link', { name: 'Edit Air Handler AHU-3' })).toHaveAttribute('href', '/digital-twin/manage?edit=ahu-3')
    expect(within(items[1]).getByRole('button', { name: 'Retire Air Handler AHU-3' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Add equipment' })).toHaveAttribute('href', '/digital-twin/manage?new')
  })

  it('adds a Modbus TCP twin with two points: the body as the API takes it, then back to the list', async () => {
    const fetchMock = server({ 'POST /api/digital-twin/equipment': ({ body }) => ({ status: 201, body: { ...demoTwin, ...JSON.parse(body ?? '{}'), id: 'eq-new' } }) })
    const user = userEvent.setup()
    const { history } = renderWithApp(<ManageEquipmentPage />, '/digital-twin/manage?new')
    expect(await screen.findByRole('heading', { level: 2, name: 'Add equipment' })).toBeInTheDocument()
    await fillModbusTwin(user)
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent(fetchMock, 'POST', '/api/digital-twin/equipment')).toEqual([modbusBody]))
    await waitFor(() => expect(history.at(-1)).toBe('/digital-twin/manage'))
    expect(await screen.findByText('Panel LP-9 is saved.')).toBeInTheDocument()
  })

  it('shows the problems it can find before anything is sent, each at its field', async () => {
    const fetchMock = server()
    const user = userEvent.setup()
    renderWithApp(<ManageEquipmentPage />, '/digital-twin/manage?new')
    await user.click(await screen.findByRole('switch', { name: 'Connect to a real device' }))
    await user.type(screen.getByLabelText('Address'), '10.20.1.15')
    const row = within(screen.getAllByTestId('point-row')[0])
    await user.clear(row.getByLabelText('Register'))
    await user.type(row.getByLabelText('Register'), '65535')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Name is required.')).toBeInTheDocument()
    expect(screen.getByLabelText('Name')).toHaveFocus()
    expect(screen.getByLabelText('Address')).toHaveAccessibleDescription(/Address must be host:port: missing port in address\./)
    expect(row.getByLabelText('Register')).toHaveAttribute('aria-invalid', 'true')
    expect(row.getByLabelText('Register')).toHaveAccessibleDescription('Register must be from 0 to 65534.')
    expect(sent(fetchMock, 'POST', '/api/digital-twin/equipment')).toEqual([])
  })

  it('checks a field when it loses focus, and again as it changes once it shows an error; a new row shows none yet', async () => {
    server()
    const user = userEvent.setup()
    renderWithApp(<ManageEquipmentPage />, '/digital-twin/manage?new')
    await user.click(await screen.findByRole('switch', { name: 'Connect to a real device' }))
    const address = screen.getByLabelText('Address')
    await user.type(address, '10.20.1.15')
    await user.tab()
    expect(address).toHaveAccessibleDescription(/Address must be host:port: missing port in address\./)
    await user.type(address, ':502')
    await waitFor(() => expect(address).not.toHaveAttribute('aria-invalid'))
    expect(address).toHaveFocus()
    await user.click(screen.getByRole('button', { name: 'Add task' }))
    expect(screen.getByRole('textbox', { name: 'Task 1' })).toHaveFocus()
    expect(screen.queryByText('Task is required.')).not.toBeInTheDocument()
  })

  it('a 400 from the server shows at the field it names, or at the top', async () => {
    let answer: FakeAnswer = { status: 400, body: { message: 'connection.points[1].register must be from 0 to 65534' } }
    server({ 'POST /api/digital-twin/equipment': () => answer })
    const user = userEvent.setup()
    renderWithApp(<ManageEquipmentPage />, '/digital-twin/manage?new')
    await fillModbusTwin(user)
    await user.click(screen.getByRole('button', { name: 'Save' }))
    const register = within(screen.getAllByTestId('point-row')[1]).getByLabelText('Register')
    await waitFor(() => expect(register).toHaveAccessibleDescription('Register must be from 0 to 65534.'))
    expect(register).toHaveFocus()

    answer = { status: 400, body: { message: 'equipment limit reached for this organisation' } }
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Equipment limit reached for this organisation.')).toBeInTheDocument()
  })

  it('tests the connection as typed, before saving, and shows each point’s reading or error', async () => {
    const fetchMock = server({
      'POST /api/digital-twin/connection-test': {
        body: { ok: false, durationMs: 8.2, error: 'pressure: Modbus exception 2 (illegal data address)', points: [{ sensor: 'temperature', raw: 34.5, value: 34.5, unit: '°C' }, { sensor: 'pressure', unit: 'kPa', error: 'illegal data address' }] },
      },
    })
    const user = userEvent.setup()
    renderWithApp(<ManageEquipmentPage />, '/digital-twin/manage?new')
    await fillModbusTwin(user)
    await user.click(screen.getByRole('button', { name: 'Test connection' }))
    expect(await screen.findByTestId('connection-test-summary')).toHaveTextContent('The test failed in 8.2 ms: pressure: Modbus exception 2 (illegal data address)')
    const points = screen.getAllByTestId('connection-test-point')
    expect(points[0]).toHaveTextContent('Temperature (°C)34.534.5 °CNone')
    expect(points[1]).toHaveTextContent('illegal data address')
    expect(sent(fetchMock, 'POST', '/api/digital-twin/connection-test')).toEqual([{ communicationProtocol: 'Modbus TCP', connection: modbusBody.connection }])
    expect(sent(fetchMock, 'POST', '/api/digital-twin/equipment')).toEqual([])
  })

  it('edits a twin on a real OPC UA device: its values shown, the stored password kept unless typed', async () => {
    const fetchMock = server({ 'PUT /api/digital-twin/equipment/ahu-3': ({ body }) => ({ body: { ...realTwin, ...JSON.parse(body ?? '{}') } }) })
    const user = userEvent.setup()
    const { history } = renderWithApp(<ManageEquipmentPage />, '/digital-twin/manage?edit=ahu-3')
    expect(await screen.findByRole('heading', { level: 2, name: 'Edit Air Handler AHU-3' })).toBeInTheDocument()
    expect(screen.getByLabelText('Address')).toHaveValue('opc.tcp://10.20.2.7:4840')
    expect(screen.getByLabelText('Security mode')).toHaveValue('SignAndEncrypt')
    expect(screen.getByLabelText('Password (optional)')).toHaveAccessibleDescription('A password is stored; leave this empty to keep it.')
    expect(screen.getByLabelText('Node id')).toHaveValue('ns=2;s=SupplyTemp')
    // Another protocol does not keep the stored password, so the hint goes.
    await user.selectOptions(screen.getByLabelText('Communication protocol'), 'MQTT')
    expect(screen.getByLabelText('Password (optional)')).not.toHaveAccessibleDescription()
    await user.selectOptions(screen.getByLabelText('Communication protocol'), 'OPC-UA')
    await user.clear(screen.getByLabelText('Name'))
    await user.type(screen.getByLabelText('Name'), 'Air Handler AHU-3 (east)')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(history.at(-1)).toBe('/digital-twin/manage'))
    const [body] = sent(fetchMock, 'PUT', '/api/digital-twin/equipment/ahu-3') as { name: string; connection: Record<string, unknown> }[]
    expect(body.name).toBe('Air Handler AHU-3 (east)')
    expect(body.connection).toEqual({
      address: 'opc.tcp://10.20.2.7:4840',
      securityPolicy: 'Basic256Sha256',
      securityMode: 'SignAndEncrypt',
      username: 'gateway',
      intervalMs: 500,
      timeoutMs: 2000,
      points: [{ sensor: 'temperature', nodeId: 'ns=2;s=SupplyTemp', scale: 1, offset: 0 }],
    })
  })

  it('an OPC UA twin on the demo device offers its writable sensors', async () => {
    const fetchMock = server({ 'PUT /api/digital-twin/equipment/pnl-lp2a': ({ body }) => ({ body: { ...demoTwin, ...JSON.parse(body ?? '{}') } }) })
    const user = userEvent.setup()
    renderWithApp(<ManageEquipmentPage />, '/digital-twin/manage?edit=pnl-lp2a')
    await user.selectOptions(await screen.findByLabelText('Communication protocol'), 'OPC-UA')
    await user.click(screen.getByRole('checkbox', { name: 'Speed (rpm)' }))
    await user.click(screen.getByRole('checkbox', { name: 'Temperature (°C)' }))
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent(fetchMock, 'PUT', '/api/digital-twin/equipment/pnl-lp2a')).toHaveLength(1))
    expect(sent(fetchMock, 'PUT', '/api/digital-twin/equipment/pnl-lp2a')[0]).toMatchObject({ communicationProtocol: 'OPC-UA', connection: null, writableSensors: ['temperature', 'rpm'] })
  })

  it('retires a twin after asking', async () => {
    let retired = false
    const fetchMock = server({
      'GET /api/digital-twin/equipment': () => ({ body: retired ? [demoTwin] : [demoTwin, realTwin] }),
      'DELETE /api/digital-twin/equipment/ahu-3': () => {
        retired = true
        return { status: 204 }
      },
    })
    const user = userEvent.setup()
    renderWithApp(<ManageEquipmentPage />, '/digital-twin/manage')
    await user.click(await screen.findByRole('button', { name: 'Retire Air Handler AHU-3' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Retire Air Handler AHU-3?' })
    expect(within(dialog).getByRole('button', { name: 'Keep it' })).toHaveFocus()
    await user.click(within(dialog).getByRole('button', { name: 'Retire' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument())
    expect(fetchMock.mock.calls.some(([url, init]) => String(url) === '/api/digital-twin/equipment/ahu-3' && init?.method === 'DELETE')).toBe(true)
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Air Handler AHU-3' })).not.toBeInTheDocument())
    expect(await screen.findByText('Air Handler AHU-3 is retired; its history is kept.')).toBeInTheDocument()
    // The Retire button that opened the dialog is gone with its twin: focus lands on the list's heading, not the page's body.
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'Your equipment (1)' })).toHaveFocus())
  })

  it.each([
    ['a shared twin', 'chlr-1', 'Centrifugal Chiller CH-1 is shared demo equipment every organisation trains on: no one changes or retires it.'],
    ['another organisation’s twin', 'bp-9', 'Booster Pump BP-9 belongs to another organisation: only its instructors and admins change it.'],
  ])('offers no form for %s', async (_, id, why) => {
    server()
    renderWithApp(<ManageEquipmentPage />, `/digital-twin/manage?edit=${id}`)
    expect(await screen.findByText(why, { exact: false })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument()
  })

  it('reads the list afresh each time it opens, whatever the cache holds (the monitor keeps device details as they were)', async () => {
    const fetchMock = server()
    const lists = () => fetchMock.mock.calls.filter(([url]) => new URL(String(url), 'http://app.test').pathname === '/api/digital-twin/equipment').length
    const first = renderWithApp(<ManageEquipmentPage />, '/digital-twin/manage')
    await screen.findByRole('list', { name: 'Equipment' })
    expect(lists()).toBe(1)
    first.unmount()
    const location = memoryLocation({ path: '/digital-twin/manage' })
    render(
      <Providers client={first.client}>
        <Router hook={location.hook} searchHook={location.searchHook}>
          <ManageEquipmentPage />
        </Router>
      </Providers>,
    )
    await screen.findByRole('list', { name: 'Equipment' })
    await waitFor(() => expect(lists()).toBe(2))
  })

  it('a learner is told the page is for instructors and admins', async () => {
    server({}, learnerMe)
    renderWithApp(<ManageEquipmentPage />, '/digital-twin/manage')
    expect(await screen.findByText(/Only instructors and admins of an organisation manage equipment\. You are signed in as Lee Learner, a learner\./)).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Add equipment' })).not.toBeInTheDocument()
  })
})
