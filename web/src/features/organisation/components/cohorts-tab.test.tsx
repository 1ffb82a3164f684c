import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Me } from '@/api/account'
import type { CohortMember } from '@/api/organisation'
import { adminMe, fakeApi } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'
import { CohortsTab } from './cohorts-tab'

afterEach(() => vi.unstubAllGlobals())

const me = adminMe as Me
const person = (id: string, displayName: string): CohortMember => ({ id, displayName, email: `${id}@example.com`, role: 'learner' })
const bo = person('bo', 'Bo Builder')
const cy = person('cy', 'Cy Carpenter')
const di = person('di', 'Di Driller')
const lea = person('lea', 'Lea Learner')
const instructor = { id: me.id, displayName: me.displayName }

/** The server: one cohort, Spring 2027, whose members the requests change; lea is in the organisation but not in it. */
function server(start: CohortMember[], { failRemove = false } = {}) {
  let members = [...start]
  const cohort = () => ({ id: 'c1', name: 'Spring 2027', instructor, memberCount: members.length, createdAt: '2026-11-01T00:00:00Z' })
  const routes: Parameters<typeof fakeApi>[0] = {
    'GET /api/cohorts': () => ({ body: [cohort()] }),
    'GET /api/cohorts/c1': () => ({ body: { ...cohort(), members } }),
    'GET /api/organisation/members': ({ url }) => {
      const q = (url.searchParams.get('q') ?? '').toLowerCase()
      const all = [...start, lea].filter((m, i, list) => list.findIndex((x) => x.id === m.id) === i)
      const found = all.filter((m) => !q || m.displayName.toLowerCase().includes(q)).map((m) => ({ ...m, cohorts: [], joinedAt: null }))
      return { body: found, headers: { 'X-Total-Count': String(found.length) } }
    },
    'POST /api/cohorts/c1/members': ({ body }) => {
      const { userId } = JSON.parse(body ?? '{}') as { userId: string }
      members = [...members, [bo, cy, di, lea].find((m) => m.id === userId)!]
      return { status: 204 }
    },
  }
  for (const m of [bo, cy, di, lea]) {
    routes[`DELETE /api/cohorts/c1/members/${m.id}`] = () => {
      if (failRemove) return { status: 500, body: { message: 'internal error' } }
      members = members.filter((x) => x.id !== m.id)
      return { status: 204 }
    }
  }
  fakeApi(routes)
}

/** Opens the cohort from the keyboard; answers the user and the member list. */
async function openCohort() {
  const user = userEvent.setup()
  renderWithApp(<CohortsTab me={me} />)
  const open = await within(await screen.findByRole('list', { name: 'Cohorts' })).findByRole('button', { name: /Spring 2027/ })
  open.focus()
  await user.keyboard('{Enter}')
  await screen.findByRole('heading', { level: 2, name: 'Spring 2027' })
  return user
}

const removeButton = (m: CohortMember) => screen.getByRole('button', { name: `Remove ${m.displayName} from Spring 2027` })
const status = () => screen.getAllByRole('status').find((s) => s.textContent)

describe('CohortsTab: members by keyboard', () => {
  it("removing moves focus to the next member's Remove, then the previous one's, then the Members heading, each announced", async () => {
    server([bo, cy, di])
    const user = await openCohort()

    removeButton(cy).focus()
    await user.keyboard('{Enter}')
    await waitFor(() => expect(document.activeElement).toBe(removeButton(di)))
    expect(screen.queryByRole('button', { name: /Remove Cy Carpenter/ })).not.toBeInTheDocument()
    expect(status()).toHaveTextContent('Cy Carpenter left Spring 2027.')

    // The last one: no next, so the previous.
    await user.keyboard('{Enter}')
    await waitFor(() => expect(document.activeElement).toBe(removeButton(bo)))
    expect(status()).toHaveTextContent('Di Driller left Spring 2027.')

    // The only one: the list goes, and focus lands on its heading.
    await user.keyboard('{Enter}')
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 3, name: 'Members' })))
    expect(screen.getByText('No members yet.')).toBeInTheDocument()
    expect(screen.queryByRole('list', { name: 'Members of Spring 2027' })).not.toBeInTheDocument()
    expect(status()).toHaveTextContent('Bo Builder left Spring 2027.')
  })

  it('a refused removal keeps focus on its button and says why', async () => {
    server([bo, cy], { failRemove: true })
    const user = await openCohort()
    removeButton(bo).focus()
    await user.keyboard('{Enter}')
    await waitFor(() => expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain('Something went wrong on our side (500). Please try again.'))
    expect(document.activeElement).toBe(removeButton(bo))
  })

  it('adding moves focus back to the search, for the next one, and announces who joined', async () => {
    server([bo])
    const user = await openCohort()
    const search = screen.getByRole('searchbox', { name: 'Add a member' })
    await user.click(search)
    await user.keyboard('Lea')
    const matches = await screen.findByRole('list', { name: 'Matching members' })
    await user.tab()
    expect(document.activeElement).toBe(within(matches).getByRole('button', { name: 'Add Lea Learner to Spring 2027' }))
    await user.keyboard('{Enter}')
    await waitFor(() => expect(document.activeElement).toBe(search))
    expect(within(screen.getByRole('list', { name: 'Members of Spring 2027' })).getByText('Lea Learner')).toBeInTheDocument()
    expect(status()).toHaveTextContent('Lea Learner joined Spring 2027.')
    // The search stays, and Lea has left the matches.
    expect(search).toHaveValue('Lea')
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Add Lea Learner to Spring 2027' })).not.toBeInTheDocument())
  })
})
