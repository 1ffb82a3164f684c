import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import { AppRouter } from '@/app/router'
import { matchRoute } from '@/app/routes'
import { adminMe, fakeApi, guestMe, learnerMe } from '@/test/fake-api'
import * as answers from '@/test/portal-answers'
import { renderWithApp } from '@/test/render'

afterEach(() => vi.unstubAllGlobals())

const slow = { timeout: 20_000 }

describe('portal routes', () => {
  it('name each page and pass ids as typed', () => {
    expect(matchRoute('/portal').route.title({})).toBe('Portal')
    expect(matchRoute('/Portal/Cohorts/AbC9').params).toEqual({ id: 'AbC9' })
    expect(matchRoute('/portal/learners/u1/sessions/S-2/').params).toEqual({ id: 'u1', sessionid: 'S-2' })
    expect(matchRoute('/portal/learners').route.pattern).toBe('*')
    expect(matchRoute('/portal/learners/u1/sessions').route.pattern).toBe('*')
  })
})

describe('/portal', { timeout: 30_000 }, () => {
  it("lists an instructor's cohorts, each leading to its learners", async () => {
    fakeApi({
      'GET /api/me': { body: answers.instructorMe() },
      'GET /api/cohorts': { body: [answers.cohort(), answers.cohort({ id: 'c2', name: 'Evening class', memberCount: 1 })] },
    })
    renderWithApp(<AppRouter />, '/portal')
    expect(await screen.findByRole('heading', { level: 1, name: 'Portal' }, slow)).toBeInTheDocument()
    const list = await screen.findByRole('list', { name: 'Cohorts' })
    const [spring, evening] = within(list).getAllByRole('listitem')
    expect(within(spring).getByRole('link', { name: 'Spring 2027' })).toHaveAttribute('href', `/portal/cohorts/${answers.cohortId}`)
    expect(spring).toHaveTextContent('48 learners')
    expect(spring).toHaveTextContent('Instructor: Ivan Instructor')
    expect(evening).toHaveTextContent('1 learner')
  })

  it('tells an instructor without cohorts where to make one', async () => {
    fakeApi({ 'GET /api/me': { body: answers.instructorMe() }, 'GET /api/cohorts': { body: [] } })
    renderWithApp(<AppRouter />, '/portal')
    expect(await screen.findByText(/You teach no cohorts yet/, {}, slow)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Create a cohort' })).toHaveAttribute('href', '/organisation?tab=cohorts')
  })

  it('shows a failed load', async () => {
    fakeApi({ 'GET /api/me': { body: adminMe }, 'GET /api/cohorts': { status: 500, body: { message: 'internal error' } } })
    renderWithApp(<AppRouter />, '/portal')
    expect(await screen.findByRole('alert', {}, slow)).toHaveTextContent('Could not load your cohorts. Something went wrong on our side (500).')
  })

  it('tells a learner that the portal is for instructors and admins', async () => {
    const fetchMock = fakeApi({ 'GET /api/me': { body: { ...learnerMe, organisation: { id: 'o1', name: 'Northside' } } } })
    renderWithApp(<AppRouter />, `/portal/cohorts/${answers.cohortId}`)
    expect(await screen.findByText(/Only instructors and admins use the portal; you are a learner at Northside\./, {}, slow)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to your account' })).toHaveAttribute('href', '/account')
    // Nothing of the portal is asked for.
    expect(fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => /portal|cohorts/.test(url))).toEqual([])
  })

  it('sends a guest to sign in, with the way back', async () => {
    fakeApi({ 'GET /api/me': { body: guestMe } })
    const { history } = renderWithApp(<AppRouter />, `/portal/cohorts/${answers.cohortId}?sort=alerts`)
    await waitFor(() => expect(history.at(-1)).toBe(`/sign-in?next=${encodeURIComponent(`/portal/cohorts/${answers.cohortId}?sort=alerts`)}`), slow)
  })
})
