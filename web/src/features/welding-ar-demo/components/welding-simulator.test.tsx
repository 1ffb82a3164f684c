import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, render, screen } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import { createQueryClient } from '@/lib/api'
import { WeldingSimulator } from '@/features/welding-ar-demo/components/welding-simulator'
import { CAMERA_DENIED } from '@/features/welding-ar-demo/lib/record'

const modules = [{ id: 'welding-joint-preparation', tradeId: 'welding', title: 'Weld Joint Preparation and Fit-Up' }]
const content = {
  moduleTitle: 'Weld Joint Preparation and Fit-Up',
  sceneUrl: '/api/xr-scenes/welding-joint-preparation',
  scene: {
    id: 'welding-joint-preparation',
    title: 'Weld joint preparation',
    objects: [],
    steps: [
      { id: 'wear-eyes', instruction: 'Put on safety glasses and the welding helmet.', target: 'helmet', action: 'grab', safetyCheckId: 'eye-face-ppe' },
      { id: 'bevel-plate', instruction: 'Grind a bevel.', target: 'plate-left', action: 'click' },
    ],
    safetyChecks: [{ id: 'eye-face-ppe', description: 'Eye protection', weight: 2 }],
    passCriteria: { requiredSteps: [], minSafetyScore: 75 },
  },
}

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

/** Renders the simulator on a fake server; `end`, when given, answers the PATCH that ends the session. */
function renderSimulator(end?: () => Response) {
  const calls: { method: string; url: string; body?: unknown }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET'
      calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined })
      if (url === '/api/training-modules') return json(modules)
      if (url.endsWith('/xr-content')) return json(content)
      if (method === 'POST') return json({ id: 's1', moduleId: modules[0].id, sessionType: 'ar', startedAt: new Date().toISOString() }, 201)
      if (end && method === 'PATCH' && 'endedAt' in JSON.parse(String(init?.body))) return end()
      return json({
        id: 's1',
        moduleId: modules[0].id,
        sessionType: 'ar',
        startedAt: new Date().toISOString(),
        safetyScore: 33.3,
        interactionData: { completionStatus: 'failed' },
      })
    }),
  )
  render(
    <QueryClientProvider client={createQueryClient()}>
      <WeldingSimulator />
    </QueryClientProvider>,
  )
  return calls
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'mediaDevices')
})

// A loaded machine renders slowly; these wait on real promises, not on time.
describe('WeldingSimulator', { timeout: 30_000 }, () => {
  it('shows every step of the scene as a pre-weld check, in order, each safety one saying which check it is', async () => {
    renderSimulator()
    const eyes = await screen.findByRole('checkbox', { name: 'Put on safety glasses and the welding helmet.' }, { timeout: 10_000 })
    expect(eyes).toHaveAccessibleDescription('Safety check: Eye protection')
    const bevel = screen.getByRole('checkbox', { name: 'Grind a bevel.' })
    expect(bevel).not.toHaveAccessibleDescription()
    expect(screen.getAllByRole('checkbox')).toEqual([eyes, bevel])
  })

  it('alerts the exact text when the browser has no camera API, and stays ready', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {})
    const calls = renderSimulator()
    const start = await screen.findByRole('button', { name: 'Start Welding' }, { timeout: 10_000 })
    await vi.waitFor(() => expect(start).toBeEnabled(), { timeout: 10_000 })
    await act(async () => start.click())
    expect(alert).toHaveBeenCalledWith(CAMERA_DENIED)
    expect(screen.getByTestId('weld-status')).toHaveTextContent('Ready')
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
  })

  it('records the weld as an AR session: POST when the checks begin, a PATCH per check, the end with metrics, score and checks', async () => {
    const stop = vi.fn()
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia: vi.fn(async () => ({ getTracks: () => [{ stop }] })) },
    })
    const calls = renderSimulator()
    const check = await screen.findByRole('checkbox', { name: 'Put on safety glasses and the welding helmet.' }, { timeout: 10_000 })
    // Closed until the checks begin: that is when the session starts.
    expect(check).toBeDisabled()
    const begin = screen.getByRole('button', { name: 'Begin Pre-weld Checks' })
    await vi.waitFor(() => expect(begin).toBeEnabled(), { timeout: 10_000 })
    await act(async () => begin.click())
    await vi.waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1))
    expect(check).toBeEnabled()
    await act(async () => check.click())
    expect(check).toBeChecked()
    expect(check).toBeDisabled()
    await vi.waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1))
    const update = calls.find((c) => c.method === 'PATCH')?.body as { interactionData: { interactions: Record<string, unknown>[] } }
    expect(update.interactionData.interactions).toMatchObject([{ action: 'grab', stepId: 'wear-eyes', seq: 0 }])

    const start = screen.getByRole('button', { name: 'Start Welding' })
    await act(async () => start.click())
    expect(screen.getByTestId('weld-status')).toHaveTextContent('Welding')
    await act(async () => screen.getByRole('button', { name: 'End Weld' }).click())
    expect(stop).toHaveBeenCalled()
    // The server's judgement, as it answered the end.
    await screen.findByText('Saved to your session history: failed, safety 33.3%.', {}, { timeout: 10_000 })
    // Welding continued the session the checks began.
    const posts = calls.filter((c) => c.method === 'POST')
    expect(posts).toHaveLength(1)
    expect(posts[0]).toMatchObject({ url: '/api/xr-sessions', body: { moduleId: 'welding-joint-preparation', sessionType: 'ar' } })
    const end = calls.filter((c) => c.method === 'PATCH')[1]
    expect(end?.url).toBe('/api/xr-sessions/s1')
    const body = end?.body as { completionStatus: string; interactionData: { interactions: Record<string, unknown>[] } }
    expect(body.completionStatus).toBe('completed')
    expect(body.interactionData.interactions.map((i) => i.action)).toEqual(['grab', 'weld'])
    expect(body.interactionData.interactions[1]).toMatchObject({ technique: 'GMAW', material: 'carbon steel', position: '1G', qualityLabel: 'Fair' })
  })

  /** Grants the camera and starts welding without the pre-weld checks. */
  async function startWelding(end?: () => Response) {
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia: vi.fn(async () => ({ getTracks: () => [{ stop: vi.fn() }] })) },
    })
    const calls = renderSimulator(end)
    const start = await screen.findByRole('button', { name: 'Start Welding' }, { timeout: 10_000 })
    await vi.waitFor(() => expect(start).toBeEnabled(), { timeout: 10_000 })
    await act(async () => start.click())
    return calls
  }

  it('starts the session at Start Welding when the checks were not begun, with no checks in it', async () => {
    const calls = await startWelding()
    for (const check of screen.getAllByRole('checkbox')) expect(check).toBeDisabled()
    expect(screen.queryByRole('button', { name: 'Begin Pre-weld Checks' })).toBeNull()
    await act(async () => screen.getByRole('button', { name: 'End Weld' }).click())
    await screen.findByText(/Saved to your session history/, {}, { timeout: 10_000 })
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1)
    const end = calls.find((c) => c.method === 'PATCH')?.body as { interactionData: { interactions: Record<string, unknown>[] } }
    expect(end.interactionData.interactions.map((i) => i.action)).toEqual(['weld'])
  })

  it.each([
    ['a session ended meanwhile (409) says so', json({ message: 'XR session s1 has already ended' }, 409), 'This weld was not saved: its session had already ended.'],
    ['any other failure says the weld could not be saved', json({ message: 'internal error' }, 500), 'This weld could not be saved.'],
  ])('%s', async (_, answer, text) => {
    await startWelding(() => answer)
    await act(async () => screen.getByRole('button', { name: 'End Weld' }).click())
    expect(await screen.findByText(text, {}, { timeout: 10_000 })).toBeInTheDocument()
    expect(screen.queryByText(/Saved to your session history/)).toBeNull()
  })
})
