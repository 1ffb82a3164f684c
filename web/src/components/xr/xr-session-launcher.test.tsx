import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useEffect } from 'react'
import { QueryClientProvider } from '@tanstack/react-query'
import { Toaster } from '@/components/toaster'
import { resetToastsForTests } from '@/hooks/use-toast'
import { createQueryClient } from '@/lib/api'
import type { ScenePlayerHandle, ScenePlayerProps } from '@/components/xr/scene-player-types'
import type { XRCapabilities } from '@/components/xr/use-xr-capabilities'
import type { NewSessionInput, SessionEndInput } from '@/api/xr-sessions'
import { RealtimeClient } from '@/lib/realtime'
import { FakeSocket } from '@/test/fake-socket'

// The 3D player needs WebGL, which jsdom lacks: a stand-in renders one button per object.
const enterXR = vi.fn<ScenePlayerHandle['enterXR']>()
const exitXR = vi.fn()
vi.mock('@/components/xr/scene-player-lazy', () => ({
  preloadScenePlayer: () => Promise.resolve(),
  ScenePlayer: (props: ScenePlayerProps) => {
    const { onReady } = props
    useEffect(() => {
      onReady?.({ enterXR, exitXR, getPose: () => ({ position: { x: 0, y: 1.6, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } }) })
      return () => onReady?.(null)
    }, [onReady])
    return (
      <div>
        {props.scene.objects.map((o) => (
          <button key={o.id} onClick={() => props.onActivate(o.id, 'ray')}>
            3D {o.label}
          </button>
        ))}
        {props.safetyAlert ? <button onClick={props.safetyAlert.onAcknowledge}>In-scene alert: {props.safetyAlert.text}</button> : null}
      </div>
    )
  },
}))

const { XRSessionLauncher, instructorNotice } = await import('@/components/xr/xr-session-launcher')

const content = {
  moduleTitle: 'Lockout',
  sceneUrl: '/api/xr-scenes/lockout',
  scene: {
    id: 'lockout',
    title: 'Lockout scene',
    tradeIds: ['electrical'],
    environment: 'A panel room',
    objects: [
      { id: 'ppe', label: 'Face shield', shape: 'sphere', position: [0, 1, 0], rotation: [0, 0, 0], size: [0.1, 0, 0], color: '#ffffff' },
      { id: 'handle', label: 'Handle', shape: 'box', position: [0, 1, -1], rotation: [0, 0, 0], size: [0.1, 0.3, 0.1], color: '#ff0000' },
    ],
    steps: [
      { id: 'don-ppe', instruction: 'Wear the face shield', target: 'ppe', action: 'grab', safetyCheckId: 'ppe-worn' },
      { id: 'open', instruction: 'Open the disconnect', target: 'handle', action: 'click' },
    ],
    safetyChecks: [{ id: 'ppe-worn', description: 'PPE worn', weight: 1 }],
    passCriteria: { requiredSteps: ['don-ppe', 'open'], minSafetyScore: 80 },
  },
}

// What the client sent: a start, an update or an end, typed as all three so each test reads its fields.
type Call = { method: string; url: string; body?: NewSessionInput & SessionEndInput & Record<string, unknown> }
let calls: Call[]
let failPost = false
let failEnd: boolean | 'ended' = false

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

const record = (extra: object = {}) => ({ id: 's1', moduleId: 'm1', sessionType: 'desktop', startedAt: new Date().toISOString(), ...extra })

beforeEach(() => {
  calls = []
  failPost = false
  failEnd = false
  enterXR.mockReset().mockResolvedValue(undefined)
  exitXR.mockReset()
  act(() => resetToastsForTests())
  vi.spyOn(console, 'error').mockImplementation(() => {})
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const body = init?.body ? JSON.parse(String(init.body)) : undefined
      calls.push({ method: init?.method ?? 'GET', url, body })
      if (url.endsWith('/xr-content')) return json(200, content)
      if (init?.method === 'POST') return failPost ? json(500, { message: 'boom' }) : json(201, record({ sessionType: body.sessionType }))
      if (init?.method === 'PATCH') {
        if (body.endedAt && failEnd) return failEnd === 'ended' ? json(409, { message: 'XR session s-1 has already ended' }) : json(503, { message: 'down' })
        return json(200, record(body.endedAt ? { completionStatus: 'completed', duration: body.duration, safetyScore: 100, interactionData: { completionStatus: 'passed' } } : {}))
      }
      return json(404, { message: 'not found' })
    }),
  )
})
afterEach(() => {
  vi.unstubAllGlobals()
})

const caps = (vr: boolean, ar = vr): XRCapabilities => ({ checked: true, supportsVR: vr, supportsAR: ar, supportedSessionModes: [] })

function renderLauncher(props: Partial<Parameters<typeof XRSessionLauncher>[0]> = {}) {
  const onSessionEnd = vi.fn()
  render(
    <QueryClientProvider client={createQueryClient()}>
      <XRSessionLauncher moduleId="m1" capabilities={caps(false)} onSessionEnd={onSessionEnd} {...props} />
      <Toaster />
    </QueryClientProvider>,
  )
  return { onSessionEnd }
}

/** Makes End Session answer with a passed record carrying the server's verdict. */
function endsWith(verdict: { verified: boolean; verificationIssues: string[] }) {
  const fetchMock = fetch as unknown as ReturnType<typeof vi.fn<(url: string, init?: RequestInit) => Promise<Response>>>
  const real = fetchMock.getMockImplementation()!
  fetchMock.mockImplementation(async (url, init) => {
    if (init?.method === 'PATCH' && JSON.parse(String(init.body)).endedAt) {
      return json(200, record({ completionStatus: 'completed', duration: 30, safetyScore: 100, interactionData: { completionStatus: 'passed' }, ...verdict }))
    }
    return real(url, init)
  })
}

const toastRegion = () => screen.getByRole('region', { name: /Notifications/ })
// The bodies of the PATCH requests, in order.
const patches = () => calls.flatMap((c) => (c.method === 'PATCH' && c.body ? [c.body] : []))

describe('XRSessionLauncher', () => {
  it('shows the default title, the module id and the scene address', async () => {
    renderLauncher()
    expect(screen.getByRole('heading', { name: 'Training Module' })).toBeInTheDocument()
    expect(screen.getByText('m1')).toBeInTheDocument()
    expect(await screen.findByText('/api/xr-scenes/lockout')).toBeInTheDocument()
    expect(calls[0].url).toBe('/api/training-modules/m1/xr-content')
  })

  it('hands the current safety alert to the 3D scene, whose Acknowledge acknowledges it', async () => {
    const user = userEvent.setup()
    const acknowledge = vi.fn()
    const alert = { key: 'alert-4', alertType: 'help', description: 'Need assistance', at: new Date().toISOString() }
    renderLauncher({ safetyAlerts: { current: alert, waiting: 0, acknowledge } })
    await user.click(await screen.findByRole('button', { name: 'In-scene alert: Safety Alert: Need assistance' }))
    expect(acknowledge).toHaveBeenCalledWith('alert-4')
  })

  it('shows the placeholder id and loads nothing while no module is selected', async () => {
    renderLauncher({ moduleId: '' })
    expect(screen.getByRole('heading', { name: 'Training Module' })).toBeInTheDocument()
    expect(screen.getByText('default', { selector: 'code' })).toBeInTheDocument()
    expect(screen.getByText('Select a training module to load its 3D scene.')).toBeInTheDocument()
    await act(() => new Promise((r) => setTimeout(r, 50)))
    expect(calls).toEqual([])
    expect(screen.getByRole('button', { name: 'Desktop Mode' })).toBeDisabled()
  })

  it('disables VR when immersive VR is not supported', async () => {
    renderLauncher({ capabilities: caps(false, true) })
    await screen.findByText('3D Face shield')
    expect(screen.getByRole('button', { name: 'VR Mode' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'AR Mode' })).toBeEnabled()
    expect(screen.getByRole('button', { name: 'Desktop Mode' })).toBeEnabled()
  })

  it('runs a desktop session: start, an update per interaction, end with the record', async () => {
    const user = userEvent.setup()
    const { onSessionEnd } = renderLauncher({ userId: 'u1' })
    await user.click(await screen.findByRole('button', { name: 'Desktop Mode' }))
    expect(await within(toastRegion()).findByText('Training Session Started')).toBeInTheDocument()
    expect(within(toastRegion()).getByText('DESKTOP session is now active')).toBeInTheDocument()
    const post = calls.find((c) => c.method === 'POST')!
    expect(post.url).toBe('/api/xr-sessions')
    expect(post.body).toEqual({ moduleId: 'm1', sessionType: 'desktop', deviceType: navigator.userAgent, startedAt: expect.any(String), userId: 'u1' })

    await user.click(screen.getByRole('button', { name: '3D Face shield' }))
    await waitFor(() => expect(patches()).toHaveLength(1))
    expect(calls.find((c) => c.method === 'PATCH')?.url).toBe('/api/xr-sessions/s1')
    expect(patches()[0].interactionData.interactions).toEqual([
      expect.objectContaining({ action: 'grab', objectId: 'ppe', stepId: 'don-ppe', input: 'ray', seq: 0, sessionTime: expect.any(Number), timestamp: expect.any(String) }),
    ])
    expect(patches()[0].interactionData.safetyChecks).toEqual([{ id: 'ppe-worn', status: 'passed' }])
    expect(patches()[0].position).toEqual({ x: 0, y: 1.6, z: 0 })

    await user.click(screen.getByRole('button', { name: 'Complete step 2' }))
    await waitFor(() => expect(patches()).toHaveLength(2))
    expect(patches()[1].interactionData.interactions).toEqual([expect.objectContaining({ action: 'click', input: 'keyboard', seq: 1 })])

    await user.click(screen.getByRole('button', { name: 'End Session' }))
    expect(await within(toastRegion()).findByText('Session Completed')).toBeInTheDocument()
    expect(within(toastRegion()).getByText('Training session lasted 0 minutes')).toBeInTheDocument()
    const end = patches()[2]
    expect(end).toMatchObject({ completionStatus: 'completed', moduleId: 'm1', sessionType: 'desktop', endedAt: expect.any(String), duration: expect.any(Number) })
    expect(end.duration).toBeLessThan(60)
    expect(end.interactionData.interactions).toEqual([])
    expect(onSessionEnd).toHaveBeenCalledWith(expect.objectContaining({ id: 's1', completionStatus: 'completed' }))
    // The scene is cleared: the modes are offered again.
    expect(screen.queryByRole('button', { name: 'End Session' })).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Desktop Mode' })).toBeEnabled()
  })

  it("shows the server's reasons when it could not verify the session", async () => {
    const user = userEvent.setup()
    const issues = ['Actions were recorded ahead of real time: one at 10 s arrived when only 4 s of the session had passed.']
    renderLauncher()
    endsWith({ verified: false, verificationIssues: issues })
    await user.click(await screen.findByRole('button', { name: 'Desktop Mode' }))
    await user.click(await screen.findByRole('button', { name: 'End Session' }))
    const message = await screen.findByText(/^Last session: passed · safety score 100%/)
    const status = message.closest('[role="status"]') as HTMLElement
    expect(within(status).getByText(/Not verified\. It counts for no certification and no completed module\./)).toBeInTheDocument()
    expect(within(status).getByText(issues[0])).toBeInTheDocument()
  })

  it('says so when the session is verified', async () => {
    const user = userEvent.setup()
    renderLauncher()
    endsWith({ verified: true, verificationIssues: [] })
    await user.click(await screen.findByRole('button', { name: 'Desktop Mode' }))
    await user.click(await screen.findByRole('button', { name: 'End Session' }))
    const status = (await screen.findByText(/^Last session: passed/)).closest('[role="status"]') as HTMLElement
    expect(within(status).getByText('Verified')).toBeInTheDocument()
    expect(within(status).queryByText(/Not verified/)).not.toBeInTheDocument()
  })

  it('records a skipped step', async () => {
    const user = userEvent.setup()
    renderLauncher()
    await user.click(await screen.findByRole('button', { name: 'Desktop Mode' }))
    await user.click(await screen.findByRole('button', { name: 'Skip step 1' }))
    await waitFor(() => expect(patches()).toHaveLength(1))
    expect(patches()[0].interactionData.interactions[0]).toMatchObject({ action: 'skip', stepId: 'don-ppe' })
    expect(patches()[0].interactionData.safetyChecks).toEqual([{ id: 'ppe-worn', status: 'skipped' }])
    expect(screen.getByText('Safety score so far: 0%')).toBeInTheDocument()
  })

  it('requests an immersive VR session and reports VR', async () => {
    const user = userEvent.setup()
    renderLauncher({ capabilities: caps(true) })
    await user.click(await screen.findByRole('button', { name: 'VR Mode' }))
    expect(await within(toastRegion()).findByText('VR session is now active')).toBeInTheDocument()
    expect(enterXR).toHaveBeenCalledWith('immersive-vr')
    expect(calls.find((c) => c.method === 'POST')?.body?.sessionType).toBe('vr')
  })

  it('falls back to desktop when the immersive request fails', async () => {
    const user = userEvent.setup()
    enterXR.mockRejectedValue(new Error('NotAllowedError'))
    renderLauncher({ capabilities: caps(true) })
    await user.click(await screen.findByRole('button', { name: 'AR Mode' }))
    expect(await within(toastRegion()).findByText('XR Mode Unavailable')).toBeInTheDocument()
    expect(within(toastRegion()).getByText('Falling back to desktop mode')).toBeInTheDocument()
    expect(enterXR).toHaveBeenCalledWith('immersive-ar')
    expect(calls.find((c) => c.method === 'POST')?.body?.sessionType).toBe('desktop')
    expect(screen.getByText('DESKTOP session active')).toBeInTheDocument()
  })

  it('shows Session Failed when the start fails, and ends the immersive session it opened', async () => {
    const user = userEvent.setup()
    failPost = true
    renderLauncher({ capabilities: caps(true) })
    await user.click(await screen.findByRole('button', { name: 'VR Mode' }))
    expect(await within(toastRegion()).findByText('Session Failed')).toBeInTheDocument()
    expect(within(toastRegion()).getByText('Could not start training session')).toBeInTheDocument()
    expect(exitXR).toHaveBeenCalled()
    expect(screen.getByRole('button', { name: 'VR Mode' })).toBeEnabled()
  })

  it('shows Session End Error and keeps the session when the end fails', async () => {
    const user = userEvent.setup()
    failEnd = true
    renderLauncher()
    await user.click(await screen.findByRole('button', { name: 'Desktop Mode' }))
    await user.click(await screen.findByRole('button', { name: 'End Session' }))
    expect(await within(toastRegion()).findByText('Session End Error')).toBeInTheDocument()
    expect(within(toastRegion()).getByText('Could not properly end session')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'End Session' })).toBeEnabled()
  })

  it('takes a 409 to the end as the session ended elsewhere: it clears the session and says so', async () => {
    const user = userEvent.setup()
    failEnd = 'ended'
    renderLauncher()
    await user.click(await screen.findByRole('button', { name: 'Desktop Mode' }))
    await user.click(await screen.findByRole('button', { name: 'End Session' }))
    expect(await within(toastRegion()).findByText('Session Already Ended')).toBeInTheDocument()
    expect(within(toastRegion()).getByText('XR session s-1 has already ended')).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: 'Desktop Mode' })).toBeEnabled()
    expect(screen.queryByRole('button', { name: 'End Session' })).not.toBeInTheDocument()
  })

  it('only logs a failed update and sends the unstored interaction again with the next one', async () => {
    const user = userEvent.setup()
    renderLauncher()
    await user.click(await screen.findByRole('button', { name: 'Desktop Mode' }))
    const fetchMock = fetch as unknown as ReturnType<typeof vi.fn>
    const real = fetchMock.getMockImplementation()!
    fetchMock.mockImplementationOnce(async (url: string, init?: RequestInit) => {
      calls.push({ method: 'PATCH', url, body: JSON.parse(String(init?.body)) })
      return json(500, { message: 'boom' })
    })
    await user.click(screen.getByRole('button', { name: '3D Face shield' }))
    await waitFor(() => expect(console.error).toHaveBeenCalledWith('XR session update failed', expect.any(Error)))
    expect(screen.queryByText('Session Failed')).not.toBeInTheDocument()
    fetchMock.mockImplementation(real)
    await user.click(screen.getByRole('button', { name: '3D Handle' }))
    await waitFor(() => expect(patches()).toHaveLength(2))
    expect(patches()[1].interactionData.interactions.map((i: { seq: number }) => i.seq)).toEqual([0, 1])
  })
})

function connectedChannel() {
  FakeSocket.reset()
  const realtime = new RealtimeClient({ url: 'ws://test/ws', reconnectDelayMs: 10, createSocket: (url) => new FakeSocket(url) as unknown as WebSocket })
  realtime.connect()
  FakeSocket.last().open()
  return { realtime, socket: () => FakeSocket.last(), sockets: FakeSocket.all }
}

const from = { userId: 'i1', displayName: 'Ivan Instructor' }

/** A message of the instructor's to a session's room, as the server relays it. */
const fromInstructor = (type: string, sessionId: string, payload: unknown) => ({ type, sessionId, userId: from.userId, payload, timestamp: new Date().toISOString() })

describe('XRSessionLauncher and the instructor', () => {
  it("joins the running session's room as its participant, again after a reconnect, and leaves it when it ends", async () => {
    const user = userEvent.setup()
    const { realtime, socket, sockets } = connectedChannel()
    renderLauncher({ realtime })
    await user.click(await screen.findByRole('button', { name: 'Desktop Mode' }))
    await waitFor(() => expect(socket().messages).toContainEqual(expect.objectContaining({ type: 'join', sessionId: 's1', payload: { role: 'participant' } })))

    socket().drop()
    await waitFor(() => expect(sockets).toHaveLength(2))
    socket().open()
    expect(socket().messages).toContainEqual(expect.objectContaining({ type: 'join', sessionId: 's1', payload: { role: 'participant' } }))

    await user.click(screen.getByRole('button', { name: 'End Session' }))
    await waitFor(() => expect(socket().messages).toContainEqual(expect.objectContaining({ type: 'leave', sessionId: 's1' })))
    realtime.disconnect()
  })

  it("shows an instructor's message for this session until it is dismissed, with a toast", async () => {
    const user = userEvent.setup()
    const { realtime, socket } = connectedChannel()
    renderLauncher({ realtime })
    await user.click(await screen.findByRole('button', { name: 'Desktop Mode' }))
    await screen.findByRole('button', { name: 'End Session' })

    // Another session's message is not this learner's.
    socket().receive(fromInstructor('instructor_message', 'other', { text: 'Not for you', from }))
    expect(screen.queryByTestId('instructor-message')).not.toBeInTheDocument()

    socket().receive(fromInstructor('instructor_message', 's1', { text: 'Check your lock before you test.', from }))
    const message = screen.getByTestId('instructor-message')
    expect(message).toHaveTextContent('Message from Ivan Instructor')
    expect(message).toHaveTextContent('Check your lock before you test.')
    expect(message.closest('[role="status"]')).not.toBeNull()
    expect(await within(toastRegion()).findByText('Message from Ivan Instructor')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Dismiss the message from Ivan Instructor' }))
    expect(screen.queryByTestId('instructor-message')).not.toBeInTheDocument()
    // The session runs on.
    expect(screen.getByRole('button', { name: 'End Session' })).toBeEnabled()
    realtime.disconnect()
  })

  it("ends the session as End Session does when the instructor stops it, and says who did and why", async () => {
    const user = userEvent.setup()
    const { realtime, socket } = connectedChannel()
    const { onSessionEnd } = renderLauncher({ realtime })
    await user.click(await screen.findByRole('button', { name: 'Desktop Mode' }))
    await user.click(await screen.findByRole('button', { name: '3D Face shield' }))
    await waitFor(() => expect(patches()).toHaveLength(1))

    socket().receive(fromInstructor('instructor_stop', 'other', { reason: 'Not you', from }))
    expect(screen.getByRole('button', { name: 'End Session' })).toBeInTheDocument()

    socket().receive(fromInstructor('instructor_stop', 's1', { reason: 'Unsafe test sequence', from }))
    const stop = await screen.findByRole('alert')
    expect(stop).toHaveTextContent('Ivan Instructor stopped this session')
    expect(stop).toHaveTextContent('Reason: Unsafe test sequence')
    // The same end as the button's: the record is closed with the learner's work, and the host told.
    await waitFor(() => expect(onSessionEnd).toHaveBeenCalledWith(expect.objectContaining({ id: 's1', completionStatus: 'completed' })))
    const end = patches()[patches().length - 1]
    expect(end).toMatchObject({ completionStatus: 'completed', endedAt: expect.any(String), moduleId: 'm1', sessionType: 'desktop' })
    expect(end.interactionData.safetyChecks).toEqual([{ id: 'ppe-worn', status: 'passed' }])
    // Stopped, not completed: the toast says so, with who and why.
    expect(await within(toastRegion()).findByText('Session Stopped')).toBeInTheDocument()
    expect(within(toastRegion()).getByText('Ivan Instructor stopped this session: Unsafe test sequence')).toBeInTheDocument()
    expect(within(toastRegion()).queryByText('Session Completed')).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'End Session' })).not.toBeInTheDocument()
    expect(screen.getByRole('alert')).toHaveTextContent('Ivan Instructor stopped this session')

    // A new session starts without the old notice.
    await user.click(screen.getByRole('button', { name: 'Desktop Mode' }))
    await screen.findByRole('button', { name: 'End Session' })
    expect(screen.queryByTestId('instructor-stop')).not.toBeInTheDocument()
    realtime.disconnect()
  })

  it('names the instructor generically when the message does not', () => {
    expect(instructorNotice({ type: 'instructor_stop', timestamp: 't', payload: { reason: '' } }, 'reason')).toEqual({ from: 'Your instructor', text: '' })
  })
})
