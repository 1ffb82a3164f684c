import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { AppRouter } from '@/app/router'
import { matchRoute } from '@/app/routes'
import { fakeApi, guestMe, learnerMe, type FakeAnswer } from '@/test/fake-api'
import { FakeSocket } from '@/test/fake-socket'
import * as answers from '@/test/portal-answers'
import { renderWithApp } from '@/test/render'

/** Delivers a message on socket, then waits a task: the query cache tells the page on the next one. */
async function deliver(socket: FakeSocket, type: string, payload: unknown, extra: Record<string, unknown> = {}) {
  socket.receive({ type, payload, timestamp: new Date().toISOString(), ...extra })
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)))
}

/** The page's own channel: the first socket, the one that asks to watch. */
const channel = () => FakeSocket.all.find((s) => s.messages.some((m) => m.type === 'watch_live'))!
const slow = { timeout: 20_000 }
const ackBy = { userId: answers.instructorMe().id, displayName: 'Ivan Instructor', at: '2026-11-23T22:31:00Z' }

beforeEach(() => {
  FakeSocket.reset({ opensItself: true })
  vi.stubGlobal('WebSocket', FakeSocket)
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  vi.useRealTimers()
})

function server(routes: Record<string, FakeAnswer | ((r: { url: URL; method: string; body: string | null }) => FakeAnswer)> = {}) {
  return fakeApi({
    'GET /api/me': { body: answers.instructorMe() },
    'GET /api/portal/live': { body: [answers.liveSession()] },
    'GET /api/safety-alerts': { body: [answers.liveAlert()] },
    ...routes,
  })
}

const calls = (fetchMock: ReturnType<typeof server>, method: string, path: string) =>
  fetchMock.mock.calls.filter(([input, init]) => (init?.method ?? 'GET') === method && new URL(String(input), 'http://app.test').pathname === path)

/** Renders /portal/live and waits until the page watches the organisation. */
async function openLive() {
  renderWithApp(<AppRouter />, '/portal/live')
  await screen.findByRole('heading', { level: 1, name: 'Live view' }, slow)
  await waitFor(() => expect(channel()).toBeDefined())
  await deliver(channel(), 'watching', {})
  await screen.findByText('Live: updates arrive as they happen.')
}

const sessionsTable = () => screen.getByRole('table', { name: /^Running sessions/ })
const row = (sessionId: string) => sessionsTable().querySelector<HTMLElement>(`tr[data-session="${sessionId}"]`)

describe('/portal/live', { timeout: 30_000 }, () => {
  it('is a portal route', () => {
    expect(matchRoute('/portal/live').route.title({})).toBe('Live view · Portal')
  })

  it("lists the organisation's running sessions: learner, module, mode, step, checks and activity", async () => {
    const fetchMock = server()
    await openLive()
    expect(channel().messages[0]).toMatchObject({ type: 'watch_live', payload: {} })
    expect(channel().messages[0].sessionId).toBeUndefined()
    expect(calls(fetchMock, 'GET', '/api/safety-alerts')[0][0]).toBe('/api/safety-alerts?limit=50')
    const r = await waitFor(() => row(answers.sessionId)!)
    const rowScope = within(r)
    expect(rowScope.getByRole('rowheader')).toHaveTextContent('Bo Builder')
    expect(r).toHaveTextContent('Lockout/Tagout')
    expect(r).toHaveTextContent('Desktop')
    expect(r).toHaveTextContent('Step 2 of 6: Switch the fused disconnect to OFF.')
    expect(r).toHaveTextContent('1 of 6 steps done · 1 interaction')
    // The checks so far, each listed by name and status in words.
    const summary = rowScope.getByText('1 passed, 1 to come')
    expect(summary.tagName).toBe('SUMMARY')
    expect(rowScope.getByText('Passed:').parentElement).toHaveTextContent('Passed: Arc-rated PPE worn')
    expect(rowScope.getByText('To come:').parentElement).toHaveTextContent('To come: Absence of voltage proven')
    expect(rowScope.getByRole('button', { name: 'Observe Bo Builder in Lockout/Tagout' })).toBeInTheDocument()
  })

  it('updates a session as its live_session messages arrive, adds one that starts and drops one that ends', async () => {
    server()
    await openLive()
    await waitFor(() => expect(row(answers.sessionId)).toHaveTextContent('Step 2 of 6'))
    await deliver(
      channel(),
      'live_session',
      answers.liveSession({
        updatedAt: '2026-11-23T22:26:00Z',
        step: { index: 2, total: 6, id: 'apply-lock', instruction: 'Apply your personal lock.' },
        stepsDone: 2,
        interactions: 2,
      }),
    )
    expect(row(answers.sessionId)).toHaveTextContent('Step 3 of 6: Apply your personal lock.')

    await deliver(channel(), 'live_session', answers.liveSession({ sessionId: 's2', learnerName: 'Cy Carpenter', updatedAt: '2026-11-23T22:27:00Z' }))
    expect(screen.getByTestId('live-region-polite')).toHaveTextContent('Cy Carpenter started Lockout/Tagout.')
    const names = () => within(sessionsTable()).getAllByRole('rowheader').map((h) => h.querySelector('span')?.textContent)
    expect(names()).toEqual(['Cy Carpenter', 'Bo Builder'])

    await deliver(channel(), 'live_session', answers.liveSession({ status: 'ended', outcome: 'failed', step: null, updatedAt: '2026-11-23T22:28:00Z' }))
    expect(names()).toEqual(['Cy Carpenter'])
    expect(screen.getByTestId('live-region-polite')).toHaveTextContent("Bo Builder's session of Lockout/Tagout ended: failed.")

    await deliver(channel(), 'live_session', answers.liveSession({ sessionId: 's2', status: 'ended', outcome: 'passed', step: null }))
    expect(screen.getByTestId('no-live-sessions')).toHaveTextContent('Nobody in your organisation is training right now.')
  })

  it('watches again and reads both lists again after the channel reconnects', async () => {
    const fetchMock = server()
    await openLive()
    await waitFor(() => expect(calls(fetchMock, 'GET', '/api/portal/live').length).toBeGreaterThanOrEqual(2))
    const before = { live: calls(fetchMock, 'GET', '/api/portal/live').length, alerts: calls(fetchMock, 'GET', '/api/safety-alerts').length }

    vi.useFakeTimers({ shouldAdvanceTime: true })
    const first = channel()
    first.drop()
    expect(screen.getByTestId('live-connection')).toHaveTextContent('Reconnecting…')
    await act(() => vi.advanceTimersByTimeAsync(3_000))
    const second = await waitFor(() => {
      const next = FakeSocket.all.find((s) => s !== first && s.messages.some((m) => m.type === 'watch_live'))
      expect(next).toBeDefined()
      return next!
    })
    await deliver(second, 'watching', {})
    expect(screen.getByTestId('live-connection')).toHaveTextContent('Live: updates arrive as they happen.')
    await waitFor(() => expect(calls(fetchMock, 'GET', '/api/portal/live').length).toBe(before.live + 1))
    await waitFor(() => expect(calls(fetchMock, 'GET', '/api/safety-alerts').length).toBe(before.alerts + 1))
  })

  it("says so when the server refuses to send live sessions", async () => {
    server()
    renderWithApp(<AppRouter />, '/portal/live')
    await waitFor(() => expect(channel()).toBeDefined(), slow)
    await deliver(channel(), 'error', { message: 'only instructors and admins watch live sessions' })
    expect(await screen.findByTestId('live-connection')).toHaveTextContent('No live updates: only instructors and admins watch live sessions')
  })

  it('lists the alerts, puts a new one on top and announces it at once', async () => {
    server({ 'GET /api/safety-alerts': { body: [answers.liveAlert({ id: 6, alertType: 'help', description: 'Need assistance', acknowledgement: ackBy })] } })
    await openLive()
    const list = await screen.findByRole('list', { name: 'Safety alerts, newest first' })
    expect(within(list).getAllByRole('listitem')).toHaveLength(1)
    expect(list).toHaveTextContent('Acknowledged by Ivan Instructor at')

    await deliver(channel(), 'safety_alert', answers.liveAlert({ id: 9, displayName: 'Lena Learner', sessionId: answers.sessionId }))
    const items = within(list).getAllByRole('listitem')
    expect(items).toHaveLength(2)
    expect(items[0]).toHaveTextContent('Emergency')
    expect(items[0]).toHaveTextContent('Not acknowledged')
    expect(items[0]).toHaveTextContent('Raised by Lena Learner')
    expect(items[0]).toHaveTextContent('Emergency stop requested')
    expect(within(items[0]).getByRole('button', { name: "Observe Lena Learner's session" })).toBeInTheDocument()
    expect(within(items[0]).getByRole('button', { name: 'Acknowledge the alert from Lena Learner' })).toBeInTheDocument()
    expect(screen.getByTestId('live-region-assertive')).toHaveTextContent('Emergency alert from Lena Learner: Emergency stop requested')
    expect(screen.getByRole('heading', { level: 2, name: /Safety alerts/ })).toHaveTextContent('(1 not acknowledged)')
    // One step away on a narrow screen, where the list comes after the sessions.
    expect(screen.getByText('1 safety alert is not acknowledged.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to the alerts' })).toHaveAttribute('href', '#live-alerts-heading')
  })

  it('acknowledges an alert, stores who and when, and moves the keyboard to the acknowledgement', async () => {
    const user = userEvent.setup()
    const fetchMock = server({ 'POST /api/safety-alerts/7/acknowledge': { body: answers.liveAlert({ acknowledgement: ackBy }) } })
    await openLive()
    const item = await waitFor(() => document.querySelector<HTMLElement>('li[data-alert-id="7"]')!)
    await user.click(within(item).getByRole('button', { name: /^Acknowledge/ }))
    const line = await within(item).findByTestId('alert-acknowledgement')
    expect(line).toHaveTextContent('Acknowledged by Ivan Instructor at')
    expect(line).toHaveFocus()
    expect(item).not.toHaveTextContent('Not acknowledged')
    expect(calls(fetchMock, 'POST', '/api/safety-alerts/7/acknowledge')[0][1]?.body).toBe('{}')
  })

  it("shows another instructor's acknowledgement as it arrives, and the server's word on a late one", async () => {
    const user = userEvent.setup()
    let acked = false
    const fetchMock = server({
      'GET /api/safety-alerts': () => ({ body: [answers.liveAlert(acked ? { acknowledgement: { ...ackBy, displayName: 'Ada Admin' } } : {})] }),
      'POST /api/safety-alerts/7/acknowledge': () => {
        acked = true
        return { status: 409, body: { message: 'Ada Admin acknowledged this alert at 22:31.' } }
      },
    })
    await openLive()
    const item = await waitFor(() => document.querySelector<HTMLElement>('li[data-alert-id="7"]')!)
    await user.click(within(item).getByRole('button', { name: /^Acknowledge/ }))
    expect(await within(item).findByRole('alert')).toHaveTextContent('Ada Admin acknowledged this alert at 22:31.')
    // The list is read again, and shows who did.
    expect(await within(item).findByTestId('alert-acknowledgement')).toHaveTextContent('Acknowledged by Ada Admin at')
    expect(calls(fetchMock, 'GET', '/api/safety-alerts').length).toBeGreaterThanOrEqual(2)

    // And an acknowledgement made elsewhere arrives on the channel.
    await deliver(channel(), 'safety_alert', answers.liveAlert({ id: 8 }))
    const eight = document.querySelector<HTMLElement>('li[data-alert-id="8"]')!
    expect(eight).toHaveTextContent('Not acknowledged')
    await deliver(channel(), 'safety_alert_ack', answers.liveAlert({ id: 8, acknowledgement: ackBy }))
    expect(eight).toHaveTextContent('Acknowledged by Ivan Instructor at')
  })

  it('observes a session: its room, a message to the learner, and a stop', async () => {
    const user = userEvent.setup()
    const fetchMock = server({
      [`POST /api/portal/live/${answers.sessionId}/message`]: { status: 202, body: {} },
      [`POST /api/portal/live/${answers.sessionId}/stop`]: { status: 202, body: {} },
    })
    await openLive()
    const observe = await screen.findByRole('button', { name: /^Observe Bo Builder in / })
    await user.click(observe)
    const panel = screen.getByTestId('observe-panel')
    const heading = within(panel).getByRole('heading', { level: 2, name: 'Observing Bo Builder' })
    expect(heading).toHaveFocus()
    expect(within(panel).getByTestId('observed-step')).toHaveTextContent('Step 2 of 6: Switch the fused disconnect to OFF.')
    // The live demo's observer joins the session's room on a connection of its own.
    await waitFor(() => expect(FakeSocket.all.some((s) => s.messages.some((m) => m.type === 'join' && m.sessionId === answers.sessionId && (m.payload as { role: string }).role === 'observer'))).toBe(true))

    // A message: required, then sent.
    const box = within(panel).getByLabelText('Message to Bo Builder')
    await user.click(within(panel).getByRole('button', { name: 'Send message' }))
    expect(box).toHaveAccessibleDescription(/Write the message first\./)
    await user.type(box, 'Check your lock before you test.')
    expect(panel).toHaveTextContent('32 of 500 characters.')
    const sendButton = within(panel).getByRole('button', { name: 'Send message' })
    sendButton.focus()
    await user.keyboard('{Enter}')
    expect(await within(panel).findByText('Message sent to Bo Builder.')).toBeInTheDocument()
    expect(box).toHaveValue('')
    expect(sendButton).toHaveFocus()
    expect(JSON.parse(String(calls(fetchMock, 'POST', `/api/portal/live/${answers.sessionId}/message`)[0][1]?.body))).toEqual({ text: 'Check your lock before you test.' })

    // A stop, confirmed in a dialog with an optional reason.
    await user.click(within(panel).getByRole('button', { name: 'Stop session' }))
    const dialog = await screen.findByRole('dialog', { name: "Stop Bo Builder's session?" })
    await user.type(within(dialog).getByLabelText('Reason (optional)'), 'Unsafe test sequence')
    await user.click(within(dialog).getByRole('button', { name: 'Stop session' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(JSON.parse(String(calls(fetchMock, 'POST', `/api/portal/live/${answers.sessionId}/stop`)[0][1]?.body))).toEqual({ reason: 'Unsafe test sequence' })
    expect(panel).toHaveTextContent("Stop sent: Bo Builder's session ends as soon as their player receives it.")
    await waitFor(() => expect(within(panel).getByRole('button', { name: 'Stop session' })).toHaveFocus())

    // The session ends: the panel says how, and offers nothing more to send.
    await deliver(channel(), 'live_session', answers.liveSession({ status: 'ended', outcome: 'failed', step: null, updatedAt: '2026-11-23T22:29:00Z' }))
    expect(within(panel).getByTestId('observed-ended')).toHaveTextContent('This session has ended: failed.')
    expect(within(panel).queryByRole('button', { name: 'Send message' })).not.toBeInTheDocument()

    // Stop observing: the keyboard goes back to the list, since the row has gone.
    await user.click(within(panel).getByRole('button', { name: 'Stop observing' }))
    expect(screen.queryByTestId('observe-panel')).not.toBeInTheDocument()
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: /Running sessions/ })).toHaveFocus())
  })

  it("shows the server's refusal of a message", async () => {
    const user = userEvent.setup()
    server({ [`POST /api/portal/live/${answers.sessionId}/message`]: { status: 409, body: { message: 'this session has ended' } } })
    await openLive()
    await user.click(await screen.findByRole('button', { name: /^Observe Bo Builder in / }))
    const panel = screen.getByTestId('observe-panel')
    await user.type(within(panel).getByLabelText('Message to Bo Builder'), 'Hello')
    await user.click(within(panel).getByRole('button', { name: 'Send message' }))
    await waitFor(() => expect(within(panel).getAllByRole('alert')[0]).toHaveTextContent('This session has ended.'))
  })

  it('returns the keyboard to the Observe button when observing stops', async () => {
    const user = userEvent.setup()
    server()
    await openLive()
    const observe = await screen.findByRole('button', { name: /^Observe Bo Builder in / })
    await user.click(observe)
    await user.click(screen.getByRole('button', { name: 'Stop observing' }))
    await waitFor(() => expect(observe).toHaveFocus())
  })

  it('says when nobody is training and no alert was raised', async () => {
    server({ 'GET /api/portal/live': { body: [] }, 'GET /api/safety-alerts': { body: [] } })
    await openLive()
    expect(await screen.findByTestId('no-live-sessions')).toBeInTheDocument()
    expect(screen.getByTestId('no-live-alerts')).toHaveTextContent('No safety alerts in your organisation.')
  })

  it('tells a learner that it is for instructors and admins, and opens no channel', async () => {
    const fetchMock = fakeApi({ 'GET /api/me': { body: { ...learnerMe, organisation: { id: 'o1', name: 'Northside' } } } })
    renderWithApp(<AppRouter />, '/portal/live')
    expect(await screen.findByText(/Only instructors and admins use the portal; you are a learner at Northside\./, {}, slow)).toBeInTheDocument()
    expect(fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => /portal|safety-alerts/.test(url))).toEqual([])
    expect(FakeSocket.all).toEqual([])
  })

  it('sends a guest to sign in, with the way back', async () => {
    fakeApi({ 'GET /api/me': { body: guestMe } })
    const { history } = renderWithApp(<AppRouter />, '/portal/live')
    await waitFor(() => expect(history.at(-1)).toBe(`/sign-in?next=${encodeURIComponent('/portal/live')}`), slow)
  })
})
