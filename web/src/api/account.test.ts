import { afterEach, describe, expect, it, vi } from 'vitest'
import { QueryClient, QueryObserver } from '@tanstack/react-query'
import { createQueryClient } from '@/lib/api'
import { fakeApi } from '@/test/fake-api'
import { accountKeys, canManageOrganisation, inviteInfoSchema, meSchema, signIn, switchIdentity, type Me } from './account'

afterEach(() => vi.unstubAllGlobals())

const admin = { id: 'a1', displayName: 'Ada', guest: false, email: 'ada@example.com', role: 'admin', organisation: { id: 'o1', name: 'Northside' } }

describe('meSchema', () => {
  it('reads the whole answer', () => {
    expect(meSchema.parse(admin)).toEqual(admin)
  })

  it('reads an older answer without the account fields as a guest', () => {
    expect(meSchema.parse({ id: 'g1', displayName: 'Guest g1', guest: true })).toEqual({
      id: 'g1',
      displayName: 'Guest g1',
      guest: true,
      email: null,
      role: 'guest',
      organisation: null,
    })
  })

  it('refuses an unknown role and an answer without an id', () => {
    expect(meSchema.safeParse({ ...admin, role: 'owner' }).success).toBe(false)
    expect(meSchema.safeParse({ displayName: 'x', guest: true }).success).toBe(false)
  })
})

describe('canManageOrganisation', () => {
  const me = (patch: Partial<Me>): Me => ({ ...meSchema.parse(admin), ...patch })
  it('is for instructors and admins of an organisation', () => {
    expect(canManageOrganisation(me({}))).toBe(true)
    expect(canManageOrganisation(me({ role: 'instructor' }))).toBe(true)
    expect(canManageOrganisation(me({ role: 'learner' }))).toBe(false)
    expect(canManageOrganisation(me({ organisation: null }))).toBe(false)
    expect(canManageOrganisation(me({ guest: true, role: 'guest' }))).toBe(false)
    expect(canManageOrganisation(undefined)).toBe(false)
  })
})

describe('inviteInfoSchema', () => {
  it('reads an invite with and without a cohort', () => {
    const base = { organisation: { id: 'o1', name: 'Northside' }, role: 'learner', expiresAt: '2026-12-01T00:00:00Z' }
    expect(inviteInfoSchema.parse({ ...base, cohort: null }).cohort).toBeNull()
    expect(inviteInfoSchema.parse({ ...base, cohort: { id: 'c1', name: 'Spring' } }).cohort).toEqual({ id: 'c1', name: 'Spring' })
    expect(inviteInfoSchema.safeParse({ ...base, role: 'guest', cohort: null }).success).toBe(false)
  })
})

describe('signIn', () => {
  it('posts the credentials as JSON and parses the Me it gets back', async () => {
    const fetchMock = fakeApi({ 'POST /api/account/sign-in': { body: admin } })
    await expect(signIn({ email: 'ada@example.com', password: 'secret pass' })).resolves.toEqual(admin)
    const [url, init] = fetchMock.mock.calls[0]
    expect(url).toBe('/api/account/sign-in')
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', body: '{"email":"ada@example.com","password":"secret pass"}' })
  })
})

describe('switchIdentity', () => {
  function seeded(): QueryClient {
    const client = createQueryClient()
    client.setQueryData(accountKeys.me, meSchema.parse({ id: 'g1', displayName: 'Guest', guest: true }))
    client.setQueryData(['/api/personalization'], { colorScheme: 'dark' })
    client.setQueryData(['/api/users', 'g1', 'xr-sessions'], [{ moduleId: 'm1' }])
    client.setQueryData(accountKeys.invite('tok'), { role: 'learner' })
    return client
  }

  it('puts the new Me in place and empties every per-user answer', async () => {
    const client = seeded()
    const me = meSchema.parse(admin)
    await switchIdentity(client, me)
    expect(client.getQueryData(accountKeys.me)).toEqual(me)
    expect(client.getQueryData(['/api/personalization'])).toBeUndefined()
    expect(client.getQueryData(['/api/users', 'g1', 'xr-sessions'])).toBeUndefined()
  })

  it('keeps what a link says, which is the same for anyone', async () => {
    const client = seeded()
    await switchIdentity(client, meSchema.parse(admin))
    expect(client.getQueryData(accountKeys.invite('tok'))).toEqual({ role: 'learner' })
  })

  it("does not ask again for the previous identity's records, which the new one may not read", async () => {
    const client = seeded()
    const queryFn = vi.fn(async () => [])
    // A page still on screen, showing the old identity's sessions.
    const observer = new QueryObserver(client, { queryKey: ['/api/users', 'g1', 'xr-sessions'], queryFn, staleTime: Infinity })
    const unsubscribe = observer.subscribe(() => {})
    await switchIdentity(client, null)
    expect(queryFn).not.toHaveBeenCalled()
    expect(client.getQueryData(['/api/users', 'g1', 'xr-sessions'])).toBeUndefined()
    unsubscribe()
  })

  it('after sign-out empties Me too, so it is asked again', async () => {
    const client = seeded()
    await switchIdentity(client, null)
    expect(client.getQueryData(accountKeys.me)).toBeUndefined()
  })
})
