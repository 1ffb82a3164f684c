import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { AppRouter } from '@/app/router'
import { fakeApi } from '@/test/fake-api'
import * as answers from '@/test/portal-answers'
import { definitionPairs } from '@/test/queries'
import { renderWithApp } from '@/test/render'
import { sessionSummary } from '@/test/server-answers'

afterEach(() => vi.unstubAllGlobals())

const slow = { timeout: 20_000 }
const page = `/portal/learners/${answers.learnerId}`
const sessionsPath = `GET /api/users/${answers.learnerId}/xr-sessions`

const unverified = sessionSummary({
  id: 's2',
  userId: answers.learnerId,
  sessionType: 'vr',
  duration: 250,
  outcome: 'passed',
  safetyScore: 66.7,
  verified: false,
  verificationIssues: ['The session clock went backwards: an action at 12.0 s was recorded after one at 14.0 s.'],
  safetyChecks: [
    { id: 'arc-flash-ppe', status: 'passed' },
    { id: 'lock-applied', status: 'skipped' },
    { id: 'absence-of-voltage', status: 'skipped' },
  ],
})
const running = sessionSummary({ id: 's3', userId: answers.learnerId, completionStatus: 'in_progress', endedAt: null, outcome: '', safetyScore: null, verified: false, safetyChecks: [] })

function server(total = 12) {
  const asked: URLSearchParams[] = []
  const fetchMock = fakeApi({
    'GET /api/me': { body: answers.instructorMe() },
    'GET /api/cohorts': { body: [answers.cohort()] },
    [`GET /api/portal/learners/${answers.learnerId}`]: { body: answers.learnerDetail() },
    [sessionsPath]: ({ url }) => {
      asked.push(url.searchParams)
      return { body: [sessionSummary({ userId: answers.learnerId }), unverified, running], headers: { 'X-Total-Count': String(total) } }
    },
  })
  return { asked, fetchMock }
}

describe('/portal/learners/:id', { timeout: 30_000 }, () => {
  it("shows the learner, their cohorts and the server's figures", async () => {
    server()
    renderWithApp(<AppRouter />, page)
    expect(await screen.findByRole('heading', { level: 1, name: 'Bo Builder' }, slow)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'bo@example.com' })).toHaveAttribute('href', 'mailto:bo@example.com')
    // One of the caller's cohorts links to its page; another instructor's is only named.
    expect(await screen.findByRole('link', { name: 'Spring 2027' })).toHaveAttribute('href', `/portal/cohorts/${answers.cohortId}`)
    expect(screen.getByText(/Evening class/)).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Evening class' })).not.toBeInTheDocument()

    const figures = screen.getByLabelText('Figures')
    const pairs = definitionPairs(figures)
    expect(pairs).toMatchObject({
      Sessions: '12',
      Time: '1 h 05 min',
      'Modules completed': '3',
      Alerts: '1',
      'Refreshers due': '2',
      'Unverified sessions': '1',
    })
    expect(pairs['Avg safety score']).toMatch(/^87[.,]5%$/)
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', `/api/portal/learners/${answers.learnerId}/export.csv`)
  })

  it('lists their sessions a page at a time, each row leading to its review', async () => {
    const { asked, fetchMock } = server()
    const { history } = renderWithApp(<AppRouter />, page)
    const table = await screen.findByRole('table', { name: /Sessions, newest first/ }, slow)
    expect(asked[0].toString()).toBe('limit=10&offset=0')
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Module',
      'Mode',
      'Date',
      'Duration',
      'Safety score',
      'Outcome',
      'Verification',
      'Safety checks',
    ])
    const [first, second, third] = within(table).getAllByRole('row').slice(1)
    expect(within(first).getByRole('link', { name: /Lockout\/Tagout/ })).toHaveAttribute('href', `${page}/sessions/${sessionSummary().id}`)
    expect(first).toHaveTextContent('Desktop')
    expect(first).toHaveTextContent('2 min 00 s')
    expect(first).toHaveTextContent('Verified')
    // The checks come with the list: no row asks for its review.
    expect(first).toHaveTextContent('5 passed, 0 skipped')
    expect(second).toHaveTextContent('VR')
    expect(second).toHaveTextContent('4 min 10 s')
    expect(second).toHaveTextContent('Unverified')
    expect(second).toHaveTextContent('The session clock went backwards')
    expect(second).toHaveTextContent('1 passed, 2 skipped')
    expect(third).toHaveTextContent('In progress')
    expect(third).toHaveTextContent('Not judged yet')
    expect(fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/review'))).toEqual([])

    expect(screen.getByText('Showing 1–3 of 12')).toBeInTheDocument()
    await userEvent.setup().click(screen.getByRole('button', { name: 'Next' }))
    await waitFor(() => expect(history.at(-1)).toBe(`${page}?offset=10`))
    expect(asked.at(-1)?.toString()).toBe('limit=10&offset=10')
  })

  it('says when there are no sessions', async () => {
    fakeApi({
      'GET /api/me': { body: answers.instructorMe() },
      'GET /api/cohorts': { body: [] },
      [`GET /api/portal/learners/${answers.learnerId}`]: { body: answers.learnerDetail() },
      [sessionsPath]: { body: [], headers: { 'X-Total-Count': '0' } },
    })
    renderWithApp(<AppRouter />, page)
    expect(await screen.findByText('No sessions recorded yet.', {}, slow)).toBeInTheDocument()
  })

  it('tells the caller a learner outside their organisation cannot be shown', async () => {
    fakeApi({
      'GET /api/me': { body: answers.instructorMe() },
      [`GET /api/portal/learners/${answers.learnerId}`]: { status: 404, body: { message: 'no such learner' } },
    })
    renderWithApp(<AppRouter />, page)
    expect(await screen.findByRole('alert', {}, slow)).toHaveTextContent('There is no such learner in your organisation.')
  })
})
