import { describe, expect, it } from 'vitest'
import { storedCertificateSchema, verificationSchema } from '@/api/certificates'
import { ApiError } from '@/lib/api'
import * as answers from '@/test/certificate-answers'
import { certificateView, formatCertificateDate, groupByModule, sentence, verificationView } from './view'

const apiError = (status: number, message: string) => new ApiError(status, JSON.stringify({ message }), '', null)
const pending = { data: undefined, error: null, isPending: true }

describe('verificationView', () => {
  it('says genuine for a valid certificate and revoked, with when, for a revoked one', () => {
    const valid = verificationSchema.parse(answers.verification())
    expect(verificationView({ data: valid, error: null, isPending: false })).toEqual({ kind: 'genuine', verification: valid })
    const revoked = verificationSchema.parse(answers.revokedVerification())
    expect(verificationView({ data: revoked, error: null, isPending: false })).toEqual({ kind: 'revoked', verification: revoked, revokedAt: '2026-11-25T09:00:00Z' })
  })

  it("tells an unknown code (404) from text that cannot be a code (400), with the server's words", () => {
    expect(verificationView({ data: undefined, error: apiError(404, 'no certificate has the code X'), isPending: false })).toEqual({
      kind: 'unknown',
      message: 'no certificate has the code X',
    })
    expect(verificationView({ data: undefined, error: apiError(400, '"x" is not a certificate code'), isPending: false })).toEqual({
      kind: 'invalid',
      message: '"x" is not a certificate code',
    })
  })

  it('reports any other failure, and checks while the answer is on its way', () => {
    expect(verificationView({ data: undefined, error: apiError(429, 'too many link look-ups'), isPending: false })).toEqual({
      kind: 'failed',
      message: 'too many link look-ups (429)',
    })
    expect(verificationView({ data: undefined, error: new TypeError('Failed to fetch'), isPending: false })).toEqual({ kind: 'failed', message: 'Failed to fetch' })
    expect(verificationView(pending)).toEqual({ kind: 'checking' })
  })
})

describe('certificateView', () => {
  it('shows the certificate, a 404 as not found, and anything else as a failure', () => {
    const cert = storedCertificateSchema.parse(answers.storedCertificate())
    expect(certificateView({ data: cert, error: null, isPending: false })).toEqual({ kind: 'certificate', certificate: cert })
    expect(certificateView({ data: undefined, error: apiError(404, 'no certificate has this code or id'), isPending: false })).toEqual({
      kind: 'not-found',
      message: 'no certificate has this code or id',
    })
    expect(certificateView({ data: undefined, error: apiError(500, 'internal error'), isPending: false }).kind).toBe('failed')
    expect(certificateView(pending)).toEqual({ kind: 'loading' })
  })
})

describe('formatCertificateDate', () => {
  it('spells the day out, in UTC, the same wherever it is read', () => {
    expect(formatCertificateDate('2026-11-24T04:48:18.60782622Z')).toBe('24 November 2026')
    expect(formatCertificateDate('2026-04-03T23:30:00-05:00')).toBe('4 April 2026')
    expect(formatCertificateDate('2026-11-24T04:48:18Z', 'short')).toBe('24 Nov 2026')
  })
  it('keeps what is not a time as it came', () => {
    expect(formatCertificateDate('soon')).toBe('soon')
  })
})

it('sentence capitalises a server message', () => {
  expect(sentence('no certificate has this code')).toBe('No certificate has this code')
  expect(sentence('')).toBe('')
})

describe('groupByModule', () => {
  it('groups consecutive competencies of a module, keeping the order', () => {
    const list = [
      { module: 'A', objective: '1' },
      { module: 'A', objective: '2' },
      { module: 'B', objective: '3' },
    ]
    expect(groupByModule(list)).toEqual([
      { module: 'A', competencies: [list[0], list[1]] },
      { module: 'B', competencies: [list[2]] },
    ])
    expect(groupByModule([])).toEqual([])
  })
  it('keeps a module that comes back later as a group of its own, so nothing moves', () => {
    expect(groupByModule([{ module: 'A' }, { module: 'B' }, { module: 'A' }]).map((g) => g.module)).toEqual(['A', 'B', 'A'])
  })
})
