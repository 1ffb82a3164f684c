import { describe, expect, it } from 'vitest'
import type { Invite } from '@/api/organisation'
import { checkInviteForm, inviteStatus } from './invites-tab'

const form = { role: 'learner' as const, cohortId: '', expiresInDays: '7', multiUse: false, maxUses: '30' }

describe('checkInviteForm', () => {
  it('makes a single-use invite without a cohort', () => {
    expect(checkInviteForm(form)).toEqual({ ok: true, input: { role: 'learner', expiresInDays: 7, maxUses: 1 } })
  })

  it('makes a multi-use invite to a cohort', () => {
    expect(checkInviteForm({ ...form, role: 'instructor', cohortId: 'c1', multiUse: true, maxUses: '25' })).toEqual({
      ok: true,
      input: { role: 'instructor', cohortId: 'c1', expiresInDays: 7, maxUses: 25 },
    })
  })

  it('names the fields out of range', () => {
    expect(checkInviteForm({ ...form, expiresInDays: '31', multiUse: true, maxUses: '1001' })).toEqual({
      ok: false,
      fields: { expiresInDays: 'Expiry must be a whole number of days from 1 to 30.', maxUses: 'Maximum uses must be a whole number from 2 to 1000.' },
    })
    expect(checkInviteForm({ ...form, expiresInDays: '2.5' }).ok).toBe(false)
    expect(checkInviteForm({ ...form, expiresInDays: '' }).ok).toBe(false)
    // A single-use invite ignores the uses box.
    expect(checkInviteForm({ ...form, maxUses: 'x' }).ok).toBe(true)
  })
})

describe('inviteStatus', () => {
  const invite: Invite = {
    id: 'i1',
    role: 'learner',
    cohort: null,
    maxUses: 2,
    uses: 1,
    expiresAt: '2026-12-01T00:00:00Z',
    revoked: false,
    createdAt: '2026-11-20T00:00:00Z',
    createdBy: { id: 'u1', displayName: 'Ada' },
  }
  const now = new Date('2026-11-25T00:00:00Z')
  it('tells active, used up, expired and revoked apart, revoked first', () => {
    expect(inviteStatus(invite, now)).toBe('active')
    expect(inviteStatus({ ...invite, uses: 2 }, now)).toBe('used up')
    expect(inviteStatus(invite, new Date('2026-12-02T00:00:00Z'))).toBe('expired')
    expect(inviteStatus({ ...invite, revoked: true, uses: 2 }, now)).toBe('revoked')
  })
})
