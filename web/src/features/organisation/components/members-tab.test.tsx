import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, within } from '@testing-library/react'
import type { Me } from '@/api/account'
import { adminMe, fakeApi } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'
import { MembersTab } from './members-tab'

afterEach(() => vi.unstubAllGlobals())

const member = (id: string, displayName: string, role: string, cohorts: string[], teaches: string[]) => ({
  id,
  displayName,
  email: `${id}@example.com`,
  role,
  cohorts: cohorts.map((name) => ({ id: `c-${name}`, name })),
  teaches: teaches.map((name) => ({ id: `c-${name}`, name })),
  joinedAt: '2026-11-01T00:00:00Z',
})

describe('MembersTab', () => {
  it('shows the cohorts a member learns in and those an instructor teaches, and says when there are none', async () => {
    const members = [
      member('ada', 'Ada Admin', 'admin', [], []),
      member('ian', 'Ian Instructor', 'instructor', [], ['Spring 2027', 'Welding A']),
      member('lea', 'Lea Learner', 'learner', ['Spring 2027'], []),
    ]
    fakeApi({ 'GET /api/organisation/members': { body: members, headers: { 'X-Total-Count': '3' } } })
    renderWithApp(<MembersTab me={adminMe as Me} />)
    const cohortsOf = async (name: string) => within(await screen.findByLabelText(`Cohorts of ${name}`))
    expect((await cohortsOf('Ian Instructor')).getAllByText(/./).map((b) => b.textContent)).toEqual(['Teaches Spring 2027', 'Teaches Welding A'])
    expect((await cohortsOf('Lea Learner')).getAllByText(/./).map((b) => b.textContent)).toEqual(['Spring 2027'])
    expect((await cohortsOf('Ada Admin')).getAllByText(/./).map((b) => b.textContent)).toEqual(['No cohort'])
  })
})
