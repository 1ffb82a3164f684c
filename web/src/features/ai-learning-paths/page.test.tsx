import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { fakeApi, guestMe } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'
import * as answers from '@/test/server-answers'
import AiLearningPathsPage from './page'

afterEach(() => vi.unstubAllGlobals())

function server(overrides: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({
    'GET /api/me': { body: guestMe },
    'GET /api/training-modules': { body: answers.modules() },
    'GET /api/ai-learning/learning-preferences': { body: answers.learningPreferences() },
    'GET /api/ai-learning/skill-assessments': { body: answers.skillAssessments() },
    'GET /api/ai-learning/recommendations': { body: [] },
    'GET /api/ai-learning/refreshers': { body: answers.refreshers() },
    'POST /api/ai-learning/learning-preferences': ({ body }) => ({ body: { ...JSON.parse(body ?? '{}'), saved: true, updatedAt: '2026-11-24T09:00:00Z' } }),
    'POST /api/ai-learning/skill-assessment': ({ body }) => ({
      status: 201,
      body: { ...JSON.parse(body ?? '{}'), id: 2, level: 'intermediate', createdAt: '2026-11-24T09:00:00Z' },
    }),
    ...overrides,
  })
}

const posted = (fetchMock: ReturnType<typeof server>, path: string) =>
  fetchMock.mock.calls.filter(([url, init]) => String(url).endsWith(path) && init?.method === 'POST').map(([, init]) => JSON.parse(String(init?.body)))

describe('AI learning paths forms', () => {
  it('holds the preferences to the server’s list bounds, then saves them', async () => {
    const fetchMock = server()
    const user = userEvent.setup()
    renderWithApp(<AiLearningPathsPage />)
    const focus = await screen.findByLabelText('Focus areas')
    await user.click(focus)
    await user.paste(Array.from({ length: 21 }, (_, i) => `area ${i + 1}`).join(', '))
    await user.click(screen.getByRole('button', { name: 'Save Preferences' }))

    expect(await screen.findByText('Focus areas must have at most 20 items.')).toBeInTheDocument()
    expect(focus).toHaveAttribute('aria-invalid', 'true')
    expect(focus).toHaveAccessibleDescription('Separate with commas. Focus areas must have at most 20 items.')
    expect(focus).toHaveFocus()
    expect(posted(fetchMock, '/api/ai-learning/learning-preferences')).toEqual([])

    await user.clear(focus)
    await user.type(focus, ' safety , , wiring ,')
    expect(screen.queryByText('Focus areas must have at most 20 items.')).not.toBeInTheDocument()
    await user.type(screen.getByLabelText('Certification goals'), 'OSHA 10')
    await user.type(screen.getByLabelText('Learning goals'), 'Wire a panel')
    await user.click(screen.getByRole('button', { name: 'Save Preferences' }))

    await waitFor(() => expect(screen.getByRole('tab', { name: 'Skill Assessment' })).toHaveAttribute('aria-selected', 'true'))
    const { saved: _saved, updatedAt: _updatedAt, ...prefs } = answers.learningPreferences()
    expect(posted(fetchMock, '/api/ai-learning/learning-preferences')).toEqual([
      { ...prefs, focusAreas: ['safety', 'wiring'], certificationGoals: ['OSHA 10'], learningGoals: 'Wire a panel' },
    ])
  })

  it('holds the assessment to the server’s item length, then saves it', async () => {
    const fetchMock = server()
    const user = userEvent.setup()
    renderWithApp(<AiLearningPathsPage />)
    await user.click(await screen.findByRole('tab', { name: 'Skill Assessment' }))
    const strengths = await screen.findByLabelText('Strengths')
    expect(strengths).toHaveValue('wiring')
    const improvements = screen.getByLabelText('Improvement areas')
    await user.click(improvements)
    await user.paste(`arc flash, ${'x'.repeat(101)}`)
    await user.click(screen.getByRole('button', { name: 'Save Assessment' }))

    expect(await screen.findByText('Each item in improvement areas must be at most 100 characters.')).toBeInTheDocument()
    expect(improvements).toHaveAttribute('aria-invalid', 'true')
    expect(improvements).toHaveFocus()
    expect(strengths).not.toHaveAttribute('aria-invalid')
    expect(posted(fetchMock, '/api/ai-learning/skill-assessment')).toEqual([])

    await user.clear(improvements)
    await user.type(improvements, 'arc flash, lockout')
    await user.click(screen.getByRole('button', { name: 'Save Assessment' }))

    await waitFor(() => expect(screen.getByRole('tab', { name: 'AI Recommendations' })).toHaveAttribute('aria-selected', 'true'))
    expect(posted(fetchMock, '/api/ai-learning/skill-assessment')).toEqual([{ ...answers.skillAssessments().initial, improvementAreas: ['arc flash', 'lockout'] }])
  })

  it("shows the server's refusal as the form's alert", async () => {
    server({ 'POST /api/ai-learning/learning-preferences': { status: 400, body: { message: 'xrComfortLevel must be one of beginner, comfortable, expert' } } })
    const user = userEvent.setup()
    renderWithApp(<AiLearningPathsPage />)
    await user.click(await screen.findByRole('button', { name: 'Save Preferences' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('xrComfortLevel must be one of beginner, comfortable, expert')
    expect(screen.getByRole('tab', { name: 'Learning Preferences' })).toHaveAttribute('aria-selected', 'true')
  })
})

describe('AI learning paths by keyboard', () => {
  /** Holds the answers to one POST until release() is called, so a test can look at the page while it saves. */
  function holdPost(fetchMock: ReturnType<typeof server>, path: string) {
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const answer = fetchMock.getMockImplementation()!
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).endsWith(path) && init?.method === 'POST') await held
      return answer(input, init)
    })
    return () => release()
  }
  const status = () => screen.getByTestId('ai-learning-status')

  it('keeps focus on each save button while it saves, then moves it to what comes next and says what was saved', async () => {
    const fetchMock = server({ 'POST /api/ai-learning/generate-recommendations': { status: 201, body: answers.recommendationSet() } })
    const user = userEvent.setup()
    renderWithApp(<AiLearningPathsPage />)
    expect(status()).toHaveAttribute('role', 'status')
    expect(status()).toBeEmptyDOMElement()

    // Save Preferences: it stays focused (aria-disabled, not disabled) while it saves…
    const releasePrefs = holdPost(fetchMock, '/api/ai-learning/learning-preferences')
    const savePrefs = await screen.findByRole('button', { name: 'Save Preferences' })
    savePrefs.focus()
    await user.keyboard('{Enter}')
    const savingPrefs = await screen.findByRole('button', { name: 'Saving...' })
    expect(savingPrefs).toHaveFocus()
    expect(savingPrefs).toHaveAttribute('aria-disabled', 'true')
    await user.keyboard('{Enter}') // pressed again while it saves: nothing more is sent
    releasePrefs()
    // …then the assessment tab's heading takes focus, and the status says the preferences are saved.
    const assessmentHeading = screen.getByRole('heading', { name: 'Skill Assessment' })
    await waitFor(() => expect(assessmentHeading).toHaveFocus())
    expect(screen.getByRole('tab', { name: 'Skill Assessment' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('status')).toHaveTextContent('Learning preferences saved.')
    expect(posted(fetchMock, '/api/ai-learning/learning-preferences')).toHaveLength(1)

    // Save Assessment: focus goes on to Generate, the next thing to do.
    await user.tab()
    await user.click(screen.getByRole('button', { name: 'Save Assessment' }))
    const generate = await screen.findByRole('button', { name: 'Generate' })
    await waitFor(() => expect(generate).toHaveFocus())
    expect(screen.getByRole('status')).toHaveTextContent('Skill assessment saved.')

    // Generate: the paths replace the button; focus goes to their heading, and the status counts them.
    await user.keyboard('{Enter}')
    const pathsHeading = await screen.findByRole('heading', { name: 'Your recommended paths' })
    await waitFor(() => expect(pathsHeading).toHaveFocus())
    expect(screen.getByRole('status')).toHaveTextContent('Recommendations generated: 1 learning path.')

    // Regenerate keeps focus while it works and after.
    const regenerate = screen.getByRole('button', { name: 'Regenerate' })
    regenerate.focus()
    const releaseGenerate = holdPost(fetchMock, '/api/ai-learning/generate-recommendations')
    await user.keyboard('{Enter}')
    expect(await screen.findByRole('button', { name: 'Generating...' })).toHaveFocus()
    releaseGenerate()
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Recommendations updated: 1 learning path.'))
    expect(screen.getByRole('button', { name: 'Regenerate' })).toHaveFocus()
  })

  it('after a new assessment with paths already there, focus goes to Regenerate', async () => {
    server({ 'GET /api/ai-learning/recommendations': { body: [answers.recommendationSet()] } })
    const user = userEvent.setup()
    renderWithApp(<AiLearningPathsPage />)
    await user.click(await screen.findByRole('tab', { name: 'Skill Assessment' }))
    await user.click(await screen.findByRole('button', { name: 'Save Assessment' }))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Regenerate' })).toHaveFocus())
    expect(screen.getByRole('status')).toHaveTextContent('Skill assessment saved.')
  })

  it('a refused save keeps focus on its button and says why', async () => {
    server({ 'POST /api/ai-learning/skill-assessment': { status: 400, body: { message: 'overallScore must be at most 100' } } })
    const user = userEvent.setup()
    renderWithApp(<AiLearningPathsPage />)
    await user.click(await screen.findByRole('tab', { name: 'Skill Assessment' }))
    const save = await screen.findByRole('button', { name: 'Save Assessment' })
    save.focus()
    await user.keyboard('{Enter}')
    expect(await screen.findByRole('alert')).toHaveTextContent('overallScore must be at most 100')
    expect(screen.getByRole('button', { name: 'Save Assessment' })).toHaveFocus()
    expect(screen.getByTestId('ai-learning-status')).toBeEmptyDOMElement()
  })
})
