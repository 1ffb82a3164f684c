import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import { AppRouter } from '@/app/router'
import { matchRoute, notFoundRoute } from '@/app/routes'
import { adminMe, fakeApi, guestMe, learnerMe } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'

afterEach(() => vi.unstubAllGlobals())

describe('account routes', () => {
  it('passes tokens as typed, since they are case-sensitive', () => {
    expect(matchRoute('/invite/AbC-9_z').params).toEqual({ token: 'AbC-9_z' })
    expect(matchRoute('/Reset-Password/XyZ/').params).toEqual({ token: 'XyZ' })
    expect(matchRoute('/Industries/HVAC').params).toEqual({ industry: 'hvac' })
  })

  it('knows each account page and nothing below them', () => {
    for (const path of ['/sign-in', '/sign-up', '/account', '/organisation', '/invite/t', '/reset-password/t']) {
      expect(matchRoute(path).route).not.toBe(notFoundRoute)
    }
    for (const path of ['/invite', '/invite/', '/reset-password', '/account/x', '/invite/a/b']) {
      expect(matchRoute(path).route).toBe(notFoundRoute)
    }
  })
})

// Lazy pages load on first use; a busy machine takes seconds over the first.
const slow = { timeout: 20_000 }
describe('pages that need an account', { timeout: 30_000 }, () => {
  it('send a guest to sign in, with the way back', async () => {
    fakeApi({ 'GET /api/me': { body: guestMe } })
    const { history } = renderWithApp(<AppRouter />, '/organisation?tab=invites')
    await waitFor(() => expect(history.at(-1)).toBe('/sign-in?next=%2Forganisation%3Ftab%3Dinvites'), slow)
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' }, slow)).toBeInTheDocument()
  })

  it('show a signed-in account its page', async () => {
    fakeApi({ 'GET /api/me': { body: adminMe } })
    renderWithApp(<AppRouter />, '/account')
    expect(await screen.findByRole('heading', { level: 1, name: 'Your account' }, slow)).toBeInTheDocument()
    expect(await screen.findByText('Northside Training Centre')).toBeInTheDocument()
  })

  it('tell a learner that /organisation is for instructors and admins', async () => {
    fakeApi({ 'GET /api/me': { body: { ...learnerMe, organisation: { id: 'o1', name: 'Northside' } } } })
    renderWithApp(<AppRouter />, '/organisation')
    expect(await screen.findByText(/Only instructors and admins manage Northside; you are a learner there\./, {}, slow)).toBeInTheDocument()
  })

  it('show an instructor the members and cohorts tabs only', async () => {
    fakeApi({
      'GET /api/me': { body: { ...adminMe, role: 'instructor' } },
      'GET /api/organisation': { body: { id: 'o1', name: 'Northside Training Centre', createdAt: '2026-11-01T00:00:00Z' } },
      'GET /api/organisation/members': { body: [], headers: { 'X-Total-Count': '0' } },
    })
    renderWithApp(<AppRouter />, '/organisation')
    expect(await screen.findByRole('tab', { name: 'Members' }, slow)).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'Cohorts' })).toBeInTheDocument()
    expect(screen.queryByRole('tab', { name: 'Invites' })).not.toBeInTheDocument()
    expect(screen.queryByRole('tab', { name: 'Roster import' })).not.toBeInTheDocument()
  })
})
