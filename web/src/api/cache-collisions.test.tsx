import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { AppRouter } from '@/app/router'
import { fakeApi, type FakeAnswer } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'
import * as answers from '@/test/server-answers'

// The 3D player needs WebGL, which jsdom lacks.
vi.mock('@/components/xr/scene-player-lazy', () => ({
  preloadScenePlayer: () => Promise.resolve(),
  ScenePlayer: () => <div>3D scene</div>,
}))

/** A socket that never connects: the pages' realtime channel stays "disconnected". */
class QuietSocket {
  readyState = 0
  addEventListener() {}
  removeEventListener() {}
  close() {}
  send() {}
}

/** The real server's answers to every call the visited pages make. */
function server(overrides: Record<string, FakeAnswer> = {}) {
  const sessionsPath = `GET /api/users/${answers.userId}/xr-sessions`
  return fakeApi({
    'GET /api/me': { body: answers.guest() },
    'GET /api/trade-categories': { body: answers.trades() },
    'GET /api/training-modules': { body: answers.modules() },
    'GET /api/training-modules/electrical-lockout-tagout/xr-content': { body: answers.xrContent() },
    [sessionsPath]: { body: [answers.sessionSummary()] },
    [`GET /api/users/${answers.userId}/xr-analytics`]: { body: answers.xrAnalytics() },
    'GET /api/personalization': { body: answers.personalization() },
    'GET /api/ai-learning/refreshers': { body: answers.refreshers() },
    'GET /api/ai-learning/learning-preferences': { body: answers.learningPreferences() },
    'GET /api/ai-learning/skill-assessments': { body: answers.skillAssessments() },
    'GET /api/ai-learning/recommendations': { body: [] },
    'GET /api/analytics/dashboard-stats': { body: answers.dashboardStats() },
    'GET /api/digital-twin-equipment': { body: [answers.equipment()] },
    ...overrides,
  })
}

const loadErrors = /could not be loaded|could not load/i

beforeEach(() => {
  vi.stubGlobal('WebSocket', QuietSocket)
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})

afterEach(() => {
  vi.unstubAllGlobals()
})

/** Opens path, waits for its heading, then goes on to next by in-app navigation (the cache stays). */
async function visit(path: string, heading: string | RegExp) {
  const app = renderWithApp(<AppRouter />, path)
  expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument()
  return app
}

describe('one cache key per answer shape', () => {
  it('/xr-training, then Industries → Electrical: the industry page shows the catalog', async () => {
    server()
    const app = await visit('/xr-training', 'XR Training Center')
    // The center has filled the cache with its modules.
    await waitFor(() => expect(screen.getByRole('button', { name: /Lockout\/Tagout/ })).toBeInTheDocument())

    act(() => app.navigate('/industries/electrical'))
    expect(await screen.findByRole('heading', { level: 1, name: 'Electrical Training' })).toBeInTheDocument()
    expect(await screen.findByTestId('industry-module-count')).toHaveTextContent('3')
    expect(screen.getByText('Multimeter Fundamentals and CAT Ratings')).toBeInTheDocument()
    expect(screen.queryByText(loadErrors)).not.toBeInTheDocument()
  })

  it('/xr-training, then a training category: the category page shows the catalog', async () => {
    server()
    const app = await visit('/xr-training', 'XR Training Center')
    await waitFor(() => expect(screen.getByRole('button', { name: /Lockout\/Tagout/ })).toBeInTheDocument())

    act(() => app.navigate('/training/safety'))
    expect(await screen.findByTestId('category-summary')).toHaveTextContent('3 modules across 1 trade')
    expect(screen.queryByText(loadErrors)).not.toBeInTheDocument()
  })

  it('/learning-hub, then /xr-training: the history lists the sessions with their ids', async () => {
    server()
    const errors = vi.spyOn(console, 'error')
    const app = await visit('/learning-hub', 'Learning Hub')
    await waitFor(() => expect(screen.queryByText('Loading your progress...')).not.toBeInTheDocument())

    act(() => app.navigate('/xr-training'))
    expect(await screen.findByRole('heading', { level: 1, name: 'XR Training Center' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('tab', { name: 'Session History' }))
    const history = await screen.findByTestId('session-history')
    await waitFor(() => expect(history).toHaveTextContent('Lockout/Tagout'))
    expect(screen.queryByText(loadErrors)).not.toBeInTheDocument()
    // A list item without its id as key is a React error in the console.
    expect(errors.mock.calls.filter((c) => String(c[0]).includes('key'))).toEqual([])
  })

  it('/industries/electrical, then /xr-training, then back: both show the catalog', async () => {
    server()
    const app = await visit('/industries/electrical', 'Electrical Training')
    expect(await screen.findByTestId('industry-module-count')).toHaveTextContent('3')

    act(() => app.navigate('/xr-training'))
    await waitFor(() => expect(screen.getByRole('button', { name: /Lockout\/Tagout/ })).toBeInTheDocument())
    expect(screen.queryByText(loadErrors)).not.toBeInTheDocument()

    act(() => app.navigate('/industries/electrical'))
    expect(await screen.findByTestId('industry-module-count')).toHaveTextContent('3')
    expect(screen.queryByText(loadErrors)).not.toBeInTheDocument()
  })
})
