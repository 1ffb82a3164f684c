import { afterEach, describe, expect, it, vi } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import {
  certificateKeys,
  certificateQueryOptions,
  competenciesQueryOptions,
  competenciesSchema,
  storedCertificateSchema,
  verificationQueryOptions,
  verificationSchema,
} from '@/api/certificates'
import { ApiError } from '@/lib/api'
import * as answers from '@/test/certificate-answers'
import { fakeApi } from '@/test/fake-api'

afterEach(() => vi.unstubAllGlobals())

describe('schemas', () => {
  it("read the server's answers whole", () => {
    expect(competenciesSchema.parse(answers.competencies())).toEqual(answers.competencies())
    expect(storedCertificateSchema.parse(answers.revokedCertificate())).toEqual(answers.revokedCertificate())
    expect(verificationSchema.parse(answers.revokedVerification())).toEqual(answers.revokedVerification())
  })

  it('read null lists (Go nil slices) as empty', () => {
    const parsed = competenciesSchema.parse({ programmes: null, modules: null, history: null, certificates: null })
    expect(parsed).toEqual({ programmes: [], modules: [], history: [], certificates: [] })
    expect(verificationSchema.parse({ ...answers.verification(), certificate: { ...answers.certificateContent(), competencies: null } }).certificate.competencies).toEqual([])
  })

  it('refuse a verification whose status is neither valid nor revoked', () => {
    expect(() => verificationSchema.parse({ ...answers.verification(), status: 'maybe' })).toThrow()
  })
})

describe('queries', () => {
  it("ask for the learner's competencies under their /api/users key, and not before the learner is known", async () => {
    const fetchMock = fakeApi({ [`GET /api/users/${answers.learnerId}/competencies`]: { body: answers.competencies() } })
    const client = new QueryClient()
    await client.fetchQuery(competenciesQueryOptions(answers.learnerId))
    expect(fetchMock).toHaveBeenCalledWith(`/api/users/${answers.learnerId}/competencies`, { credentials: 'include' })
    expect(certificateKeys.competencies(answers.learnerId).slice(0, 2)).toEqual(['/api/users', answers.learnerId])
    expect(competenciesQueryOptions(undefined).enabled).toBe(false)
  })

  it('escape a code as typed, and are asked again on every visit', async () => {
    const fetchMock = fakeApi({ 'GET /api/verify/a%20b%3F': { status: 400, body: { message: 'not a code' } } })
    const client = new QueryClient()
    const error = await client.fetchQuery(verificationQueryOptions('a b?')).catch((e: unknown) => e)
    expect(fetchMock).toHaveBeenCalledWith('/api/verify/a%20b%3F', { credentials: 'include' })
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).serverMessage).toBe('not a code')
    expect(verificationQueryOptions('x').staleTime).toBe(0)
    expect(certificateQueryOptions('x').staleTime).toBe(0)
  })
})
