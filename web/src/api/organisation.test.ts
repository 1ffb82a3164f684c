import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/api'
import { fakeApi } from '@/test/fake-api'
import { cohortSchema, getMembers, importRoster, inviteSchema, memberSchema, rosterReportSchema } from './organisation'

afterEach(() => vi.unstubAllGlobals())

const member = {
  id: 'u1',
  displayName: 'Ada',
  email: 'ada@example.com',
  role: 'admin',
  cohorts: [{ id: 'c1', name: 'Spring' }],
  teaches: [{ id: 'c2', name: 'Autumn' }],
  joinedAt: '2026-11-20T10:00:00Z',
}
const report = {
  dryRun: false,
  applied: false,
  rows: [
    { line: 2, email: 'bo@example.com', name: 'Bo', role: 'learner', cohort: 'Spring', outcome: 'create', message: '' },
    { line: 3, email: 'nope', name: 'X', role: 'learner', cohort: '', outcome: 'error', message: 'email must be an email address' },
  ],
  counts: { create: 1, update: 0, unchanged: 0, error: 1 },
}

describe('schemas', () => {
  it('reads a member, whose joining time may be unknown', () => {
    expect(memberSchema.parse(member)).toEqual(member)
    // A server before teaches answered without it: nobody taught.
    expect(memberSchema.parse({ ...member, teaches: undefined }).teaches).toEqual([])
    expect(memberSchema.parse({ ...member, joinedAt: null }).joinedAt).toBeNull()
    expect(memberSchema.safeParse({ ...member, role: 'guest' }).success).toBe(false)
  })

  it('reads the person in an invite or a cohort by name or displayName', () => {
    const invite = {
      id: 'i1',
      role: 'learner',
      cohort: null,
      maxUses: 1,
      uses: 0,
      expiresAt: '2026-12-01T00:00:00Z',
      revoked: false,
      createdAt: '2026-11-20T00:00:00Z',
      createdBy: { id: 'u1', name: 'Ada' },
    }
    expect(inviteSchema.parse(invite).createdBy).toEqual({ id: 'u1', displayName: 'Ada' })
    const cohort = { id: 'c1', name: 'Spring', instructor: { id: 'u2', displayName: 'Grace' }, memberCount: 3, createdAt: '2026-11-01T00:00:00Z' }
    expect(cohortSchema.parse(cohort).instructor).toEqual({ id: 'u2', displayName: 'Grace' })
  })

  it('reads a roster report and refuses an unknown outcome', () => {
    expect(rosterReportSchema.parse(report).rows[1].line).toBe(3)
    expect(rosterReportSchema.safeParse({ ...report, rows: [{ ...report.rows[0], outcome: 'maybe' }] }).success).toBe(false)
  })
})

describe('getMembers', () => {
  it('asks for one page and reads the total from X-Total-Count', async () => {
    const fetchMock = fakeApi({ 'GET /api/organisation/members': { body: [member], headers: { 'X-Total-Count': '41' } } })
    await expect(getMembers({ q: 'ada', limit: 20, offset: 20 })).resolves.toEqual({ members: [member], total: 41 })
    expect(fetchMock.mock.calls[0][0]).toBe('/api/organisation/members?limit=20&offset=20&q=ada')
  })
})

describe('importRoster', () => {
  it('sends the CSV as text/csv with the dry-run flag', async () => {
    const fetchMock = fakeApi({ 'POST /api/organisation/roster': { body: { ...report, dryRun: true } } })
    await importRoster('email,name,role,cohort\n', true)
    const [url, init] = fetchMock.mock.calls[0]
    expect(url).toBe('/api/organisation/roster?dryRun=true')
    expect(init?.headers).toEqual({ 'Content-Type': 'text/csv; charset=utf-8' })
    expect(init?.body).toBe('email,name,role,cohort\n')
  })

  it('answers the report of a refused import (422) instead of failing', async () => {
    fakeApi({ 'POST /api/organisation/roster': { status: 422, body: report } })
    await expect(importRoster('x', false)).resolves.toEqual(report)
  })

  it('fails on any other error', async () => {
    fakeApi({ 'POST /api/organisation/roster': { status: 413, body: { message: 'the roster is larger than 1048576 bytes' } } })
    await expect(importRoster('x', false)).rejects.toBeInstanceOf(ApiError)
  })
})
