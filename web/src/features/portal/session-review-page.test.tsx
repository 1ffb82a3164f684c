import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, fireEvent, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { AppRouter } from '@/app/router'
import { fakeApi } from '@/test/fake-api'
import * as answers from '@/test/portal-answers'
import { definitionPairs } from '@/test/queries'
import { renderWithApp } from '@/test/render'

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const slow = { timeout: 20_000 }
const page = `/portal/learners/${answers.learnerId}/sessions/${answers.sessionId}`

function server(review: object = answers.review()) {
  fakeApi({
    'GET /api/me': { body: answers.instructorMe() },
    [`GET /api/portal/learners/${answers.learnerId}`]: { body: answers.learnerDetail() },
    [`GET /api/users/${answers.learnerId}/xr-sessions/${answers.sessionId}/review`]: { body: review },
  })
}

async function open(review?: object) {
  server(review)
  renderWithApp(<AppRouter />, page)
  expect(await screen.findByRole('heading', { level: 1, name: /^Lockout\/Tagout/ }, slow)).toBeInTheDocument()
}

const slider = () => screen.getByRole('slider', { name: 'Replay position' })
const announcement = () => screen.getByTestId('replay-announcement')
const currentRow = () => screen.getByRole('table', { name: /^Steps/ }).querySelector('tr[aria-current="step"]')

describe('/portal/learners/:id/sessions/:sessionId', { timeout: 30_000 }, () => {
  it('sums the session up: result, score, verification and why not', async () => {
    await open()
    expect(await screen.findByRole('link', { name: 'Bo Builder' })).toHaveAttribute('href', `/portal/learners/${answers.learnerId}`)
    const summary = screen.getByLabelText('Summary figures')
    const pairs = definitionPairs(summary)
    expect(pairs).toMatchObject({ Outcome: 'Failed', Duration: '4 min 10 s', Verification: 'Unverified', Mode: 'VR', Device: 'Meta Quest 3' })
    expect(pairs['Safety score']).toMatch(/^66[.,]7%$/)
    expect(screen.getByTestId('verification-issues')).toHaveTextContent('Step "Test for voltage" was completed in 0.4 s; it takes at least 3 s.')
  })

  it('lists the steps in order with status, start and time taken, safety checks marked', async () => {
    await open()
    const rows = within(screen.getByRole('table', { name: /^Steps/ })).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(5)
    expect(rows[2]).toHaveTextContent('Open the disconnect')
    expect(rows[2]).toHaveTextContent('Safety check')
    expect(rows[2]).toHaveTextContent('Skipped')
    expect(rows[2]).toHaveTextContent('0:50')
    expect(rows[2]).toHaveTextContent('20 s')
    expect(rows[0]).not.toHaveTextContent('Safety check')
    expect(rows[4]).toHaveTextContent('Missed')
    const checks = screen.getByRole('list', { name: 'Safety checks' })
    expect(within(checks).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Isolate every energy sourceSkipped',
      'Verify the absence of voltagePassed',
      'Apply a personal lockSkipped',
    ])
  })

  it('moves the playhead by keyboard: the step under it is highlighted and announced', async () => {
    await open()
    expect(slider()).toHaveAttribute('max', '250000')
    expect(slider()).toHaveAttribute('aria-valuetext', '0:00 of 4:10')
    expect(announcement()).toHaveTextContent('Step 1 of 5: Notify affected employees — completed at 0:20')
    expect(announcement()).toHaveAttribute('aria-live', 'polite')

    // The range input's arrow keys are the browser's; jsdom has no default actions, so the value is set as they would.
    fireEvent.change(slider(), { target: { value: '71000' } })
    expect(announcement()).toHaveTextContent('Step 4 of 5: Test for voltage — completed at 1:42')
    expect(currentRow()).toHaveTextContent('Test for voltage')
    expect(slider()).toHaveAttribute('aria-valuetext', '1:11 of 4:10')

    fireEvent.keyDown(slider(), { key: 'PageDown' })
    expect(slider()).toHaveAttribute('aria-valuetext', '1:01 of 4:10')
    expect(announcement()).toHaveTextContent('Step 3 of 5: Open the disconnect — skipped at 1:10')

    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Previous step' }))
    expect(slider()).toHaveAttribute('aria-valuetext', '0:50 of 4:10')
    await user.click(screen.getByRole('button', { name: 'Previous step' }))
    expect(slider()).toHaveAttribute('aria-valuetext', '0:20 of 4:10')
    await user.click(screen.getByRole('button', { name: 'Next step' }))
    expect(currentRow()).toHaveTextContent('Open the disconnect')
  })

  it('plays at the chosen speed and stops at the end', async () => {
    await open()
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame', 'performance'] })
    fireEvent.click(screen.getByRole('button', { name: '16×' }))
    expect(screen.getByRole('button', { name: '16×' })).toHaveAttribute('aria-pressed', 'true')
    fireEvent.click(screen.getByRole('button', { name: 'Play' }))
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument()
    // 2 s of wall time at 16× is 32 s of the session: into step 2.
    act(() => vi.advanceTimersByTime(2000))
    expect(announcement()).toHaveTextContent(/^Step 2 of 5: Shut down the equipment/)
    // The session ran on after its last action, to its recorded 250 s.
    act(() => vi.advanceTimersByTime(20_000))
    expect(slider()).toHaveAttribute('aria-valuetext', '4:10 of 4:10')
    expect(screen.getByRole('button', { name: 'Play' })).toBeInTheDocument()
    expect(currentRow()).toHaveTextContent('Test for voltage')
    // Play at the end starts again.
    fireEvent.click(screen.getByRole('button', { name: 'Play' }))
    act(() => vi.advanceTimersByTime(100))
    expect(announcement()).toHaveTextContent(/^Step 1 of 5/)
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }))
    const paused = slider().getAttribute('aria-valuetext')
    act(() => vi.advanceTimersByTime(3000))
    expect(slider()).toHaveAttribute('aria-valuetext', paused)
  })

  it('lists every recorded action as text, behind a disclosure', async () => {
    await open()
    const summary = screen.getByText('Every recorded action (5)')
    expect(summary.closest('details')).not.toHaveAttribute('open')
    const actions = within(screen.getByRole('region', { name: 'Recorded actions', hidden: true })).getAllByRole('listitem', { hidden: true })
    expect(actions[3]).toHaveTextContent('1:10.0skip (step isolate)')
    expect(actions[4]).toHaveTextContent('1:42.0grab · meter (step test)')
  })

  it('shows no Welds section for a session without a weld', async () => {
    await open()
    expect(screen.queryByRole('heading', { name: 'Welds' })).toBeNull()
  })

  it('shows each weld of the session with its settings, readings and quality', async () => {
    const metrics = { temperature: 181, travelSpeed: 8.24, penetration: 3.3, beadWidth: 7.46, voltage: 22.5, amperage: 151, gasPressure: 22.5, accuracy: 63 }
    await open({
      ...answers.review(),
      welds: [{ seq: 4, sessionTime: 134_000, technique: 'SMAW', material: 'stainless steel', position: '3G', metrics, qualityScore: 65.0, qualityLabel: 'Needs Improvement' }],
    })
    expect(screen.getByRole('heading', { level: 2, name: 'Welds' })).toBeInTheDocument()
    const figures = screen.getByLabelText('Weld at 2:14: SMAW (Stick), stainless steel, 3G (vertical)')
    const pairs = definitionPairs(figures)
    expect(pairs).toEqual({
      Quality: '65.0 Needs Improvement',
      Temperature: '181 °C',
      'Travel Speed': '8.2 in/min',
      Penetration: '3.3 mm',
      'Bead Width': '7.5 mm',
      Voltage: '22.5 V',
      Amperage: '151 A',
      'Gas Pressure': '22.5 psi',
      Accuracy: '63 %',
    })
  })
})
