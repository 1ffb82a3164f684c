import { describe, expect, it } from 'vitest'
import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClientProvider } from '@tanstack/react-query'
import { createQueryClient } from '@/lib/api'
import { VoiceTrainingConsole } from '@/features/voice-xr/components/voice-training-console'
import { fakeSpeech } from '@/features/voice-xr/lib/fakes'
import { ladder, mig } from '@/features/voice-xr/lib/test-modules'
import { fakeApi } from '@/test/fake-api'

const savedRun = {
  id: 'r1',
  moduleId: ladder.id,
  moduleName: ladder.name,
  startedAt: '2026-03-01T09:00:00Z',
  endedAt: '2026-03-01T09:05:00Z',
  totalSteps: 3,
  stepsWalked: 1,
  completed: true,
  emergencyStops: 0,
  score: 33,
  passed: false,
  createdAt: '2026-03-01T09:05:00Z',
}

function renderConsole(opts: { recognition?: boolean } = {}) {
  const fetchMock = fakeApi({
    'GET /api/voice-modules': { body: [ladder, mig] },
    'GET /api/voice-training/runs': { body: { runs: [] } },
    'POST /api/voice-training/runs': { status: 201, body: savedRun },
  })
  const f = { ...fakeSpeech(opts), fetchMock }
  render(
    <QueryClientProvider client={createQueryClient()}>
      <VoiceTrainingConsole speech={f.deps} />
    </QueryClientProvider>,
  )
  return f
}

describe('VoiceTrainingConsole', { timeout: 30_000 }, () => {
  it('lists modules with their first 6 commands, activates one and runs typed commands', async () => {
    const f = renderConsole()
    const card = await screen.findByTestId(`voice-module-${ladder.id}`, {}, { timeout: 10_000 })
    expect(within(card).getAllByRole('listitem')).toHaveLength(6)
    expect(within(card).queryByText('“ladder secured”')).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: `Activate ${ladder.name}` }))
    expect(screen.getByTestId('active-module')).toHaveTextContent('Step 0 of 3')
    const box = screen.getByLabelText('Type a command')
    await userEvent.type(box, 'start inspection{Enter}')
    expect(screen.getByTestId('active-module')).toHaveTextContent('Step 1 of 3')
    expect(screen.getByRole('progressbar', { name: `${ladder.name} progress` })).toBeInTheDocument()
    await userEvent.type(box, 'emergency stop{Enter}')
    expect(screen.getByRole('log', { name: 'Spoken responses' })).toHaveTextContent('Emergency stop activated. Training module paused for safety.')
    expect(screen.getByTestId('active-module')).toHaveTextContent('Paused')
    expect(f.synthesis.texts.at(-1)).toBe('Emergency stop activated. Training module paused for safety.')
    expect(within(screen.getByTestId('recent-commands')).getAllByRole('listitem')).toHaveLength(2)
  })

  it('saves a run when the learner says the complete command, and lists it', async () => {
    const f = renderConsole()
    await userEvent.click(await screen.findByRole('button', { name: `Activate ${ladder.name}` }, { timeout: 10_000 }))
    const box = screen.getByLabelText('Type a command')
    await userEvent.type(box, 'start inspection{Enter}')
    // A near match acts on nothing, so it is not part of the run.
    await userEvent.type(box, 'next ladder{Enter}')
    await userEvent.type(box, 'ladder complete{Enter}')
    expect(await screen.findByText('Run saved.')).toBeInTheDocument()
    const post = f.fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')
    const sent = JSON.parse(String(post?.[1]?.body))
    expect(sent.moduleId).toBe(ladder.id)
    expect(sent.commands.map((c: { command: string }) => c.command)).toEqual(['start inspection', 'ladder complete'])
    expect(within(screen.getByTestId('voice-runs')).getByRole('listitem')).toHaveTextContent(`${ladder.name}: 1 of 3 steps, completed, steps skipped`)
  })

  it('start/stop voice control and the status badge follow the recogniser', async () => {
    const f = renderConsole()
    expect(screen.getByTestId('voice-state')).toHaveTextContent('Idle')
    await userEvent.click(screen.getByRole('button', { name: 'Start Voice Control' }))
    expect(screen.getByTestId('voice-state')).toHaveTextContent('Listening')
    await userEvent.click(screen.getByRole('button', { name: 'Stop Voice Control' }))
    expect(screen.getByTestId('voice-state')).toHaveTextContent('Idle')
    expect(f.recognition().stopped).toBe(1)
  })

  it('audio toggle is a pressed button', async () => {
    renderConsole()
    const audio = screen.getByRole('button', { name: 'Audio On' })
    expect(audio).toHaveAttribute('aria-pressed', 'true')
    await userEvent.click(audio)
    expect(screen.getByRole('button', { name: 'Audio Off' })).toHaveAttribute('aria-pressed', 'false')
  })

  it('shows the not-supported notice without speech recognition', () => {
    renderConsole({ recognition: false })
    expect(
      screen.getByText('Voice recognition is not supported in this browser. Please use Chrome, Safari, or Edge for voice-activated training.'),
    ).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Start Voice Control' })).toBeDisabled()
  })

  it('Activate names what it shows: Activate, then Active with the module, unavailable and still focused', async () => {
    const f = renderConsole()
    const user = userEvent.setup()
    const activate = await screen.findByRole('button', { name: `Activate ${ladder.name}` }, { timeout: 10_000 })
    expect(activate).toHaveTextContent(/^Activate$/)
    activate.focus()
    await user.keyboard('{Enter}')
    const active = screen.getByRole('button', { name: `Active: ${ladder.name}` })
    expect(active).toBe(activate)
    expect(active).toHaveTextContent(/^Active$/)
    expect(active).toHaveAttribute('aria-disabled', 'true')
    expect(active).toHaveFocus()
    expect(screen.getByRole('log', { name: 'Spoken responses' })).toHaveTextContent(`${ladder.name} activated.`)
    // The other modules still offer Activate.
    expect(screen.getByRole('button', { name: `Activate ${mig.name}` })).not.toHaveAttribute('aria-disabled')

    // Pressed again, the active module is not restarted: its progress stays.
    await user.type(screen.getByLabelText('Type a command'), 'start inspection{Enter}')
    expect(screen.getByTestId('active-module')).toHaveTextContent('Step 1 of 3')
    const spoken = f.synthesis.texts.length
    active.focus()
    await user.keyboard('{Enter}')
    expect(screen.getByTestId('active-module')).toHaveTextContent('Step 1 of 3')
    expect(f.synthesis.texts).toHaveLength(spoken)

    // Activating another module hands the state over.
    await user.click(screen.getByRole('button', { name: `Activate ${mig.name}` }))
    expect(screen.getByRole('button', { name: `Active: ${mig.name}` })).toHaveFocus()
    expect(screen.getByRole('button', { name: `Activate ${ladder.name}` })).not.toHaveAttribute('aria-disabled')
  })

  it('no microphone: says so in words, not as an error code, and focus stays on Start', async () => {
    const f = renderConsole()
    const user = userEvent.setup()
    const start = screen.getByRole('button', { name: 'Start Voice Control' })
    start.focus()
    await user.keyboard('{Enter}')
    const stop = screen.getByRole('button', { name: 'Stop Voice Control' })
    expect(stop).toHaveFocus()
    act(() => f.recognition().fail('audio-capture'))
    const alert = screen.getByRole('alert')
    expect(alert).toHaveTextContent(/^No microphone was found, or it could not be used\./)
    expect(alert).toHaveTextContent('then press Start Voice Control again')
    expect(alert).not.toHaveTextContent('audio-capture')
    expect(screen.getByRole('button', { name: 'Start Voice Control' })).toHaveFocus()
    expect(screen.getByTestId('voice-state')).toHaveTextContent('Idle')
  })
})
