import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { AppRouter } from '@/app/router'
import { fakeApi, type FakeAnswer } from '@/test/fake-api'
import * as answers from '@/test/portal-answers'
import { renderWithApp } from '@/test/render'

afterEach(() => vi.unstubAllGlobals())

const learnersPath = `GET /api/portal/cohorts/${answers.cohortId}/learners`
const page = `/portal/cohorts/${answers.cohortId}`
// Lazy pages load on first use; a busy machine takes seconds over the first.
const slow = { timeout: 20_000 }

/** The app's server, recording the learner lists asked for. */
function server(learners: FakeAnswer | ((url: URL) => FakeAnswer) = { body: answers.cohortLearners() }) {
  const asked: URLSearchParams[] = []
  fakeApi({
    'GET /api/me': { body: answers.instructorMe() },
    [learnersPath]: ({ url }) => {
      asked.push(url.searchParams)
      return typeof learners === 'function' ? learners(url) : learners
    },
  })
  return asked
}

const table = () => screen.getByRole('table', { name: /^Learners of Spring 2027/ })

describe('/portal/cohorts/:id', { timeout: 30_000 }, () => {
  beforeEach(() => vi.spyOn(console, 'warn').mockImplementation(() => {}))

  it("shows the cohort's learners with the server's figures, each linking to the learner", async () => {
    const asked = server()
    renderWithApp(<AppRouter />, page)
    expect(await screen.findByRole('heading', { level: 1, name: 'Spring 2027' }, slow)).toBeInTheDocument()
    expect(screen.getByText('48 learners · Instructor: Ivan Instructor')).toBeInTheDocument()
    const headers = within(table()).getAllByRole('columnheader').map((h) => h.textContent)
    expect(headers).toEqual(['Learner', 'Sessions', 'Time', 'Last active', 'Modules completed', 'Avg safety score', 'Alerts', 'Refreshers due', 'Unverified'])
    const [bo, cy] = within(table()).getAllByRole('row').slice(1)
    expect(within(bo).getByRole('link', { name: 'Bo Builder' })).toHaveAttribute('href', `/portal/learners/${answers.learnerId}`)
    expect(bo).toHaveTextContent('bo@example.com')
    const cells = within(bo).getAllByRole('cell').map((c) => c.textContent)
    expect(cells[0]).toBe('12')
    expect(cells[1]).toBe('1 h 05 min')
    expect(cells[3]).toBe('3')
    expect(cells[4]).toMatch(/^87[.,]5%$/)
    expect(cells.slice(5)).toEqual(['1', '2', '0'])
    expect(cy).toHaveTextContent('Never')
    expect(cy).toHaveTextContent('No score')
    expect(screen.getByText('Showing 1–2 of 48')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', `/api/portal/cohorts/${answers.cohortId}/export.csv`)
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('download')
    expect(asked[0].toString()).toBe('sort=displayName&dir=asc&limit=25&offset=0')
    // Sorted by name: that header, and only that one, says so.
    expect(screen.getByRole('columnheader', { name: 'Learner' })).toHaveAttribute('aria-sort', 'ascending')
    expect(screen.getByRole('columnheader', { name: 'Sessions' })).not.toHaveAttribute('aria-sort')
  })

  it('sorts by a column header: figures largest first, then the other way; the address keeps it', async () => {
    const asked = server()
    const { history } = renderWithApp(<AppRouter />, page)
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Sessions' }, slow))
    await waitFor(() => expect(screen.getByRole('columnheader', { name: 'Sessions' })).toHaveAttribute('aria-sort', 'descending'))
    expect(history.at(-1)).toBe(`${page}?sort=sessions&dir=desc`)
    expect(asked.at(-1)?.get('sort')).toBe('sessions')
    expect(asked.at(-1)?.get('dir')).toBe('desc')
    expect(screen.getByRole('columnheader', { name: 'Learner' })).not.toHaveAttribute('aria-sort')
    await user.click(screen.getByRole('button', { name: 'Sessions' }))
    await waitFor(() => expect(screen.getByRole('columnheader', { name: 'Sessions' })).toHaveAttribute('aria-sort', 'ascending'))
    expect(history.at(-1)).toBe(`${page}?sort=sessions`)
  })

  it('opens with the state a link or a reload carries', async () => {
    const asked = server()
    renderWithApp(<AppRouter />, `${page}?q=bo&flag=refreshersDue&sort=alerts&dir=desc&offset=25`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Spring 2027' }, slow)).toBeInTheDocument()
    expect(asked[0].toString()).toBe('q=bo&flag=refreshersDue&sort=alerts&dir=desc&limit=25&offset=25')
    expect(screen.getByLabelText('Search learners')).toHaveValue('bo')
    expect(screen.getByLabelText('Show')).toHaveValue('refreshersDue')
    expect(screen.getByRole('columnheader', { name: 'Alerts' })).toHaveAttribute('aria-sort', 'descending')
    expect(screen.getByText('Showing 26–27 of 48')).toBeInTheDocument()
  })

  it('searches once typing pauses and filters with Show, each from page one', async () => {
    const asked = server()
    const { history } = renderWithApp(<AppRouter />, `${page}?offset=25`)
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText('Search learners', {}, slow), 'Bo B')
    await waitFor(() => expect(history.at(-1)).toBe(`${page}?q=Bo+B`))
    // Not one request per keystroke.
    expect(asked.filter((p) => p.get('q')).map((p) => p.get('q'))).toEqual(['Bo B'])
    expect(screen.getByLabelText('Search learners')).toHaveValue('Bo B')
    await user.selectOptions(screen.getByLabelText('Show'), 'Unverified sessions')
    await waitFor(() => expect(history.at(-1)).toBe(`${page}?q=Bo+B&flag=unverified`))
    expect(asked.at(-1)?.get('flag')).toBe('unverified')
  })

  it('pages with Previous and Next', async () => {
    const asked = server()
    const { history } = renderWithApp(<AppRouter />, page)
    const user = userEvent.setup()
    expect(await screen.findByRole('button', { name: 'Previous' }, slow)).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Next' }))
    await waitFor(() => expect(history.at(-1)).toBe(`${page}?offset=25`))
    expect(asked.at(-1)?.get('offset')).toBe('25')
    await waitFor(() => expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled())
  })

  it('follows Back: the box and the table show the earlier search', async () => {
    server()
    const app = renderWithApp(<AppRouter />, `${page}?q=bo`)
    expect(await screen.findByLabelText('Search learners', {}, slow)).toHaveValue('bo')
    act(() => app.navigate(page))
    await waitFor(() => expect(screen.getByLabelText('Search learners')).toHaveValue(''))
  })

  it('says when a search finds no one, and offers everyone again', async () => {
    const asked = server((url) => ({ body: answers.cohortLearners(url.searchParams.get('q') ? [] : undefined, url.searchParams.get('q') ? 0 : 48) }))
    renderWithApp(<AppRouter />, `${page}?q=zed&flag=alerts`)
    expect(await screen.findByText('No learner matches “zed” among raised alerts.', {}, slow)).toBeInTheDocument()
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show all learners' }))
    await waitFor(() => expect(asked.at(-1)?.toString()).toBe('sort=displayName&dir=asc&limit=25&offset=0'))
    expect(await screen.findByRole('link', { name: 'Bo Builder' })).toBeInTheDocument()
  })

  it('says when a cohort has no learners yet', async () => {
    server({ body: answers.cohortLearners([], 0) })
    renderWithApp(<AppRouter />, page)
    expect(await screen.findByText(/No learners in this cohort yet/, {}, slow)).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
  })

  it("tells an instructor another's cohort is not theirs, without a download", async () => {
    server({ status: 403, body: { message: 'cohort belongs to another instructor' } })
    renderWithApp(<AppRouter />, page)
    expect(await screen.findByRole('alert', {}, slow)).toHaveTextContent('You cannot see this cohort: it is not one of yours.')
    expect(screen.getByRole('link', { name: 'Back to your cohorts' })).toHaveAttribute('href', '/portal')
    expect(screen.queryByRole('link', { name: 'Download CSV' })).not.toBeInTheDocument()
  })
})
