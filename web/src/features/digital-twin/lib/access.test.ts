import { describe, expect, it } from 'vitest'
import { driveAccess, isIdentityRefusal, managesTwin, signInHref, type TwinCaller } from './access'

const org = { id: 'o1', name: 'Northside Training' }
const caller = (over: Partial<TwinCaller>): TwinCaller => ({ guest: false, displayName: 'Sam', role: 'learner', organisation: null, ...over })

describe('driveAccess', () => {
  it.each([
    ['an instructor of an organisation', caller({ role: 'instructor', organisation: org }), { state: 'allowed' }],
    ['an admin of an organisation', caller({ role: 'admin', organisation: org }), { state: 'allowed' }],
    ['a guest', caller({ guest: true, role: 'guest', displayName: 'Guest 1a2b' }), { state: 'denied', why: null }],
    ['a learner of an organisation', caller({ organisation: org }), { state: 'denied', why: 'You are signed in as Sam, a learner.' }],
    ['a learner on their own', caller({}), { state: 'denied', why: 'You are signed in as Sam, a learner.' }],
    ['an instructor without an organisation', caller({ role: 'instructor' }), { state: 'denied', why: 'You are signed in as Sam, an instructor of no organisation.' }],
    ['an admin without an organisation', caller({ role: 'admin', displayName: '' }), { state: 'denied', why: 'You are signed in as an admin of no organisation.' }],
    // A guest flag wins over any role: a role without an account is worth nothing.
    ['a guest claiming a role', caller({ guest: true, role: 'admin', organisation: org }), { state: 'denied', why: null }],
    ['an unknown role', caller({ role: 'owner', organisation: org }), { state: 'denied', why: 'You are signed in as Sam, a learner.' }],
  ])('%s', (_, me, want) => {
    expect(driveAccess(me, false)).toEqual(want)
  })

  it('waits while /api/me is on its way, and leaves the decision to the server when it failed', () => {
    expect(driveAccess(undefined, false)).toEqual({ state: 'checking' })
    expect(driveAccess(undefined, true)).toEqual({ state: 'allowed' })
  })
})

describe('a twin of an organisation', () => {
  const staff = caller({ role: 'instructor', organisation: org })
  const own = { name: 'Pump P-7', organisationId: 'o1' }
  const theirs = { name: 'Pump P-9', organisationId: 'o2' }
  const shared = { name: 'Chiller CH-1' }
  it.each([
    ['their own twin', staff, own, { state: 'allowed' }, true],
    ['a shared twin', staff, shared, { state: 'allowed' }, false],
    ['a shared twin (null)', staff, { ...shared, organisationId: null }, { state: 'allowed' }, false],
    ['another organisation’s twin', staff, theirs, { state: 'denied', why: 'Pump P-9 belongs to another organisation: only its instructors and admins drive it.', signIn: false }, false],
    ['a learner, their organisation’s twin', caller({ organisation: org }), own, { state: 'denied', why: 'You are signed in as Sam, a learner.' }, false],
  ])('staff drive and manage: %s', (_, me, twin, drive, manages) => {
    expect(driveAccess(me, false, twin)).toEqual(drive)
    expect(managesTwin(me, twin)).toBe(manages)
  })
})

describe('isIdentityRefusal', () => {
  it.each([
    [new Error('401: {"message":"sign in first"}'), true],
    [new Error('403: {"message":"instructors and admins only"}'), true],
    [new Error('400: {"message":"data.registerCount must be 1 to 125"}'), false],
    [new Error('429: slow down'), false],
    [new Error('4010: odd'), false],
    ['401: not an Error', false],
    [undefined, false],
  ])('%s → %s', (error, want) => {
    expect(isIdentityRefusal(error)).toBe(want)
  })
})

describe('signInHref', () => {
  it('comes back to the page the caller was on', () => {
    expect(signInHref('/digital-twin')).toBe('/sign-in?next=%2Fdigital-twin')
    expect(signInHref('/advanced')).toBe('/sign-in?next=%2Fadvanced')
    expect(signInHref('/')).toBe('/sign-in')
    expect(signInHref('')).toBe('/sign-in')
  })
})
