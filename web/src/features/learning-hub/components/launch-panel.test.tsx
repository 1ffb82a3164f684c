import { beforeEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { fakeApi } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'

// WebGL is missing in jsdom: the 3D player is a stand-in.
vi.mock('@/components/xr/scene-player-lazy', () => ({
  preloadScenePlayer: () => Promise.resolve(),
  ScenePlayer: (props: { scene: { title: string } }) => <div data-testid="scene-player">{props.scene.title}</div>,
}))

class IdleSocket {
  readyState = 0
  onopen = null
  onclose = null
  onerror = null
  onmessage = null
  send() {}
  close() {}
}

const { LaunchPanel } = await import('./launch-panel')

const content = {
  moduleTitle: 'Multimeter Fundamentals',
  sceneUrl: '/api/xr-scenes/multimeter',
  scene: { id: 'multimeter', title: 'Multimeter bench', tradeIds: ['electrical'], environment: '', objects: [], steps: [], safetyChecks: [], passCriteria: { requiredSteps: [], minSafetyScore: 0 } },
}

/** The app's providers make calls of their own (the learner's appearance): only module content matters here. */
const xrContentCalls = (fetchMock: ReturnType<typeof fakeApi>) =>
  fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://app.test').pathname).filter((p) => p.endsWith('/xr-content'))

beforeEach(() => {
  vi.stubGlobal('WebSocket', IdleSocket)
})

describe('hub LaunchPanel', () => {
  it('loads no module content and no 3D scene until the learner picks a module', async () => {
    const user = userEvent.setup()
    const fetchMock = fakeApi({ 'GET /api/training-modules/electrical-multimeter/xr-content': { body: content } })
    const modules = [
      { id: 'electrical-multimeter', title: 'Multimeter Fundamentals: Measuring Voltage, Current and Resistance Safely' },
      { id: 'electrical-conduit', title: 'EMT Conduit Bending' },
    ]
    renderWithApp(<LaunchPanel userId="u1" modules={modules} onSessionEnd={() => {}} />)
    expect(screen.getByTestId('hub-no-module')).toBeInTheDocument()
    for (const m of modules) expect(screen.getByRole('button', { name: m.title })).toHaveAttribute('aria-pressed', 'false')
    await act(() => new Promise((r) => setTimeout(r, 50)))
    expect(xrContentCalls(fetchMock)).toEqual([])
    expect(screen.queryByRole('button', { name: 'Desktop Mode' })).not.toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: modules[0].title }))
    expect(await screen.findByTestId('scene-player')).toHaveTextContent('Multimeter bench')
    await waitFor(() => expect(xrContentCalls(fetchMock)).toEqual(['/api/training-modules/electrical-multimeter/xr-content']))
    expect(screen.getByRole('button', { name: modules[0].title })).toHaveAttribute('aria-pressed', 'true')
  })

  it('lets long module titles wrap instead of widening the page', () => {
    fakeApi({})
    renderWithApp(<LaunchPanel userId="u1" modules={[{ id: 'm', title: 'A very long module title that cannot fit on one line of a phone' }]} onSessionEnd={() => {}} />)
    const button = screen.getByRole('button', { name: /A very long module title/ })
    expect(button).toHaveClass('whitespace-normal')
    expect(button).not.toHaveClass('whitespace-nowrap')
  })
})
