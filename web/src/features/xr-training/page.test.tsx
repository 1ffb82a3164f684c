import { beforeEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { fakeApi, guestMe } from '@/test/fake-api'
import { FakeSocket } from '@/test/fake-socket'
import { renderWithApp } from '@/test/render'

// WebGL is missing in jsdom: the 3D player is a stand-in that shows what it was given.
vi.mock('@/components/xr/scene-player-lazy', () => ({
  preloadScenePlayer: () => Promise.resolve(),
  ScenePlayer: (props: { scene: { title: string } }) => <div data-testid="scene-player">{props.scene.title}</div>,
}))

const { default: XrTrainingPage } = await import('@/features/xr-training/page')

const modules = [
  { id: 'electrical-lockout-tagout', tradeId: 'electrical', title: 'Lockout/Tagout', description: '', difficulty: 'beginner', estimatedDuration: 20 },
  { id: 'plumbing-sweat-joint', tradeId: 'plumbing', title: 'Sweating a Copper Joint', description: '', difficulty: 'intermediate', estimatedDuration: 30 },
]
const content = {
  moduleTitle: 'Lockout/Tagout',
  sceneUrl: '/api/xr-scenes/lockout',
  scene: {
    id: 'lockout',
    title: 'Lockout scene',
    tradeIds: ['electrical'],
    environment: 'A panel room',
    objects: [{ id: 'handle', label: 'Handle', shape: 'box', position: [0, 1, -1], rotation: [0, 0, 0], size: [0.1, 0.3, 0.1], color: '#ff0000' }],
    steps: [{ id: 'open', instruction: 'Open the disconnect', target: 'handle', action: 'click' }],
    safetyChecks: [],
    passCriteria: { requiredSteps: ['open'], minSafetyScore: 80 },
  },
}

function server() {
  return fakeApi({
    'GET /api/me': { body: guestMe },
    'GET /api/training-modules': { body: modules },
    [`GET /api/users/${guestMe.id}/xr-analytics`]: { body: { totalSessions: 0, totalDuration: 0, averageSafetyScore: 0, completedModules: 0, tradeProgress: [] } },
    [`GET /api/users/${guestMe.id}/xr-sessions`]: { body: [] },
    'GET /api/training-modules/electrical-lockout-tagout/xr-content': { body: content },
  })
}

const paths = (fetchMock: ReturnType<typeof server>) => fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://app.test').pathname)

beforeEach(() => {
  FakeSocket.reset({ opensItself: true })
  vi.stubGlobal('WebSocket', FakeSocket)
})

describe('XR Training Center', () => {
  it('preselects no module and fetches no xr-content until one is selected', async () => {
    const user = userEvent.setup()
    const fetchMock = server()
    renderWithApp(<XrTrainingPage />, '/xr-training')
    const first = await screen.findByRole('button', { name: /Lockout\/Tagout/ })
    // Everything the page loads by itself has loaded…
    await waitFor(() => expect(paths(fetchMock)).toContain(`/api/users/${guestMe.id}/xr-sessions`))
    await act(() => new Promise((r) => setTimeout(r, 100)))
    // …and none of it is a module's XR content, or its 3D scene.
    expect(paths(fetchMock).filter((p) => p.endsWith('/xr-content'))).toEqual([])
    expect(first).toHaveAttribute('aria-pressed', 'false')
    expect(screen.getByRole('button', { name: /Sweating a Copper Joint/ })).toHaveAttribute('aria-pressed', 'false')
    expect(screen.queryByTestId('scene-player')).not.toBeInTheDocument()
    // The launch panel shows the spec's defaults for no selection.
    expect(screen.getByRole('heading', { level: 2, name: 'Training Module' })).toBeInTheDocument()
    expect(screen.getByText('default', { selector: 'code' })).toBeInTheDocument()
    expect(screen.getByText('Select a training module to load its 3D scene.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Desktop Mode' })).toBeDisabled()

    await user.click(first)
    await waitFor(() => expect(paths(fetchMock).filter((p) => p.endsWith('/xr-content'))).toEqual(['/api/training-modules/electrical-lockout-tagout/xr-content']))
    expect(await screen.findByTestId('scene-player')).toHaveTextContent('Lockout scene')
    expect(screen.getByRole('heading', { level: 2, name: 'Lockout/Tagout' })).toBeInTheDocument()
  })

  it('opens the module ?module= names', async () => {
    const fetchMock = server()
    renderWithApp(<XrTrainingPage />, '/xr-training?module=electrical-lockout-tagout')
    expect(await screen.findByRole('button', { name: /Lockout\/Tagout/ })).toHaveAttribute('aria-pressed', 'true')
    await waitFor(() => expect(paths(fetchMock)).toContain('/api/training-modules/electrical-lockout-tagout/xr-content'))
  })

  it('interrupts with an alert dialog for a safety alert received on the channel', async () => {
    server()
    renderWithApp(<XrTrainingPage />, '/xr-training')
    await screen.findByRole('button', { name: /Lockout\/Tagout/ })
    await waitFor(() => expect(FakeSocket.last().readyState).toBe(1))
    FakeSocket.last().receive({ type: 'safety_alert', timestamp: new Date().toISOString(), payload: { id: 1, alertType: 'emergency', description: 'Emergency stop requested' } })
    const dialog = await screen.findByRole('alertdialog', { name: 'Safety Alert: Emergency stop requested' })
    expect(within(dialog).getByRole('button', { name: 'Acknowledge' })).toHaveFocus()
    // Shown in the dialog and listed on the page; no fading toast besides.
    const shown = screen.getAllByText('Safety Alert: Emergency stop requested')
    expect(shown).toHaveLength(2)
    expect(shown.filter((el) => dialog.contains(el))).toHaveLength(1)
    expect(shown.filter((el) => screen.getByTestId('safety-alerts').contains(el))).toHaveLength(1)
  })
})
