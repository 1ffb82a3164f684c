import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { fakeApi, type FakeAnswer } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'
import * as answers from '@/test/server-answers'

// The 3D player needs WebGL, which jsdom lacks.
vi.mock('@/components/xr/scene-player-lazy', () => ({
  preloadScenePlayer: () => Promise.resolve(),
  ScenePlayer: () => <div>3D scene</div>,
}))

const { default: XrTrainingPage } = await import('./page')

class QuietSocket {
  readyState = 0
  addEventListener() {}
  removeEventListener() {}
  close() {}
  send() {}
}

function server(sessions: FakeAnswer, analytics: FakeAnswer) {
  fakeApi({
    'GET /api/me': { body: answers.guest() },
    'GET /api/training-modules': { body: answers.modules() },
    'GET /api/training-modules/electrical-lockout-tagout/xr-content': { body: answers.xrContent() },
    [`GET /api/users/${answers.userId}/xr-sessions`]: sessions,
    [`GET /api/users/${answers.userId}/xr-analytics`]: analytics,
  })
}

beforeEach(() => {
  vi.stubGlobal('WebSocket', QuietSocket)
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  vi.unstubAllGlobals()
})

async function openTab(name: string) {
  expect(await screen.findByRole('heading', { level: 1, name: 'XR Training Center' })).toBeInTheDocument()
  await userEvent.click(screen.getByRole('tab', { name }))
}

describe('XR Training Center with partial answers', () => {
  it('lists every session of the history, one without moduleId or startedAt with what it has', async () => {
    const { moduleId: _m, startedAt: _s, ...partial } = answers.sessionSummary({ id: 'partial', moduleTitle: 'Multimeter Fundamentals', sessionType: 'vr' })
    const { id: _id, ...unreadable } = answers.sessionSummary()
    server({ body: [answers.sessionSummary({ id: 'whole' }), partial, unreadable] }, { body: answers.xrAnalytics() })
    renderWithApp(<XrTrainingPage />, '/xr-training')
    await openTab('Session History')

    const history = await screen.findByTestId('session-history')
    await waitFor(() => expect(within(history).getAllByRole('listitem')).toHaveLength(2))
    const [whole, shown] = within(history).getAllByRole('listitem')
    expect(whole).toHaveTextContent('Lockout/Tagout')
    expect(whole.querySelector('time')).not.toBeNull()
    expect(shown).toHaveTextContent('Multimeter Fundamentals')
    expect(shown).toHaveTextContent('VR')
    expect(shown).toHaveTextContent('2 min')
    expect(shown.querySelector('time')).toBeNull()
    expect(screen.queryByText('Your sessions could not be loaded.')).not.toBeInTheDocument()
  })

  it('says whether each ended session passed or failed, as the portal does, and nothing of a running one', async () => {
    server(
      {
        body: [
          answers.sessionSummary({ id: 'passed' }),
          answers.sessionSummary({ id: 'failed', outcome: 'failed', safetyScore: 0 }),
          answers.sessionSummary({ id: 'running', completionStatus: 'in_progress', outcome: '', endedAt: null, safetyScore: null }),
        ],
      },
      { body: answers.xrAnalytics() },
    )
    renderWithApp(<XrTrainingPage />, '/xr-training')
    await openTab('Session History')

    const history = await screen.findByTestId('session-history')
    await waitFor(() => expect(within(history).getAllByRole('listitem')).toHaveLength(3))
    const [passed, failed, running] = within(history).getAllByRole('listitem')
    expect(within(passed).getByText('Passed')).toBeInTheDocument()
    expect(within(failed).getByText('Failed')).toBeInTheDocument()
    expect(within(failed).queryByText('Passed')).not.toBeInTheDocument()
    expect(running).toHaveTextContent('in progress')
    expect(within(running).queryByText(/^(Passed|Failed)$/)).not.toBeInTheDocument()
  })

  it('shows the progress figures of an analytics answer without tradeProgress, with an empty trade list', async () => {
    const { tradeProgress: _tp, ...withoutTrades } = answers.xrAnalytics()
    server({ body: [] }, { body: withoutTrades })
    renderWithApp(<XrTrainingPage />, '/xr-training')
    await openTab('My Progress')

    await waitFor(() => expect(screen.getByTestId('stat-xr-sessions')).toHaveTextContent('1'))
    expect(screen.getByTestId('stat-training-time')).toHaveTextContent('2h')
    expect(screen.getByTestId('stat-safety-score')).toHaveTextContent('96.5%')
    expect(screen.getByTestId('stat-achievements')).toHaveTextContent('1')
    expect(screen.getByRole('heading', { name: 'Training Progress' })).toBeInTheDocument()
    expect(document.querySelectorAll('[data-trade]')).toHaveLength(0)
    expect(screen.queryByText('Your progress could not be loaded.')).not.toBeInTheDocument()
  })

  it('keeps the figures and the readable trades when one trade of tradeProgress is broken', async () => {
    const analytics = answers.xrAnalytics()
    server({ body: [] }, { body: { ...analytics, tradeProgress: [{ tradeName: 'Nameless', percent: 'x' }, ...analytics.tradeProgress] } })
    renderWithApp(<XrTrainingPage />, '/xr-training')
    await openTab('My Progress')

    await waitFor(() => expect(document.querySelectorAll('[data-trade]')).toHaveLength(2))
    expect(screen.getByText('Electrical')).toBeInTheDocument()
    expect(screen.getByTestId('stat-xr-sessions')).toHaveTextContent('1')
    expect(screen.queryByText('Your progress could not be loaded.')).not.toBeInTheDocument()
  })
})
