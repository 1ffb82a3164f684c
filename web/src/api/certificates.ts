import { queryOptions } from '@tanstack/react-query'
import { z } from 'zod'
import { load, segment, useRead, type ReadOptions } from '@/api/parse'

/*
 * Competencies and certificates (internal/server/competencies.go):
 *
 *   GET /api/users/{userId}/competencies → the learner's programmes, modules' competencies, sign-off history, certificates
 *   GET /api/certificates/{id}           → StoredCertificate (its learner, or staff of the issuing organisation; others 404)
 *   GET /api/verify/{code}               → Verification (anyone); 400 for text that cannot be a code, 404 for an unknown code
 *
 * Signing off and revoking (POST …/competencies/sign-off and …/revoke) are
 * the instructor's: api/sign-offs.ts.
 */

const ref = z.object({ id: z.string(), name: z.string() })

/** One competency as its certificate lists it (portal.CertifiedCompetency). */
export const certifiedCompetencySchema = z.object({
  module: z.string(),
  objective: z.string(),
  achievedAt: z.string(),
  signedBy: z.string(),
  practical: z.boolean(),
})
export type CertifiedCompetency = z.infer<typeof certifiedCompetencySchema>

/** A certificate as printed and as /verify shows it (portal.Certificate): no ids, no email. */
export const certificateContentSchema = z.object({
  code: z.string(),
  learner: z.string(),
  programme: z.string(),
  organisation: z.string(),
  /** The instructor whose sign-off completed the programme. */
  signedBy: z.string(),
  issuedAt: z.string(),
  // A null list (Go's nil slice) reads as none; the server always sends [].
  competencies: z
    .array(certifiedCompetencySchema)
    .nullable()
    .transform((list) => list ?? []),
})
export type CertificateContent = z.infer<typeof certificateContentSchema>

/** An issued certificate with whose it is and whether it still holds (store.StoredCertificate). */
export const storedCertificateSchema = z.object({
  id: z.string(),
  learnerId: z.string(),
  /** The programme's id, which is its trade's. */
  programmeId: z.string(),
  certificate: certificateContentSchema,
  revokedAt: z.string().nullable(),
  revokedReason: z.string().catch(''),
})
export type StoredCertificate = z.infer<typeof storedCertificateSchema>

/** The public answer of GET /api/verify/{code}: whether the certificate holds, and its content, nothing more. */
export const verificationSchema = z.object({
  status: z.enum(['valid', 'revoked']),
  revokedAt: z.string().nullable(),
  certificate: certificateContentSchema,
})
export type Verification = z.infer<typeof verificationSchema>

/** One sign-off of a competency, current or revoked (store.SignOffRecord). */
export const signOffRecordSchema = z.object({
  id: z.string(),
  moduleId: z.string(),
  competency: z.number().int(),
  objective: z.string(),
  evidenceSessionId: z.string(),
  practical: z.boolean(),
  note: z.string(),
  signedBy: ref,
  signedAt: z.string(),
  revokedBy: ref.nullable(),
  revokedAt: z.string().nullable(),
  revokeNote: z.string(),
})
export type SignOffRecord = z.infer<typeof signOffRecordSchema>

/** The best verified, passed session a module's sign-offs rest on (store.Evidence). */
export const evidenceSchema = z.object({ sessionId: z.string(), safetyScore: z.number(), endedAt: z.string() })

export const moduleCompetenciesSchema = z.object({
  moduleId: z.string(),
  title: z.string(),
  tradeId: z.string(),
  /** null until the learner has a verified, passed session of the module. */
  evidence: evidenceSchema.nullable(),
  competencies: z.array(z.object({ index: z.number().int(), objective: z.string(), signOff: signOffRecordSchema.nullable() })),
})
export type ModuleCompetencies = z.infer<typeof moduleCompetenciesSchema>

/** A programme (every competency of every module of one trade) and how much of it the learner holds. */
export const programmeProgressSchema = z.object({
  id: z.string(),
  name: z.string(),
  total: z.number().int(),
  held: z.number().int(),
  /** The valid certificate of the programme, once issued. */
  certificate: storedCertificateSchema.nullable(),
})
export type ProgrammeProgress = z.infer<typeof programmeProgressSchema>

const listOrEmpty = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullable()
    .transform((list) => list ?? [])

/** GET /api/users/{userId}/competencies. */
export const competenciesSchema = z.object({
  programmes: listOrEmpty(programmeProgressSchema),
  modules: listOrEmpty(moduleCompetenciesSchema),
  /** Oldest first. */
  history: listOrEmpty(signOffRecordSchema),
  /** Newest first, revoked ones too. */
  certificates: listOrEmpty(storedCertificateSchema),
})
export type Competencies = z.infer<typeof competenciesSchema>

export const certificateKeys = {
  /** Under the learner's /api/users key, so what invalidates a learner's records invalidates these. */
  competencies: (userId: string) => ['/api/users', userId, 'competencies'] as const,
  certificate: (id: string) => ['/api/certificates', id] as const,
  verification: (code: string) => ['/api/verify', code] as const,
}

/** A learner's competencies; nothing is fetched until the learner is known. */
export const competenciesQueryOptions = (userId: string | undefined) =>
  queryOptions({
    queryKey: certificateKeys.competencies(userId ?? ''),
    queryFn: () => load(`/api/users/${segment(userId ?? '')}/competencies`, competenciesSchema),
    enabled: !!userId,
  })

export function useCompetencies<R = Competencies>(userId: string | undefined, options?: ReadOptions<Competencies, R>) {
  return useRead(competenciesQueryOptions(userId), options)
}

// A certificate can be revoked at any moment by someone else, so its
// answers are asked again on every visit rather than kept for the session
// like the app's other data: a page that says "genuine" must have just
// asked.
const fresh = { staleTime: 0 } as const

export const certificateQueryOptions = (id: string) =>
  queryOptions({ queryKey: certificateKeys.certificate(id), queryFn: () => load(`/api/certificates/${segment(id)}`, storedCertificateSchema), ...fresh })

export function useCertificate(id: string, options?: ReadOptions<StoredCertificate, StoredCertificate>) {
  return useRead(certificateQueryOptions(id), options)
}

export const verificationQueryOptions = (code: string) =>
  queryOptions({ queryKey: certificateKeys.verification(code), queryFn: () => load(`/api/verify/${segment(code)}`, verificationSchema), ...fresh })

export function useVerification(code: string, options?: ReadOptions<Verification, Verification>) {
  return useRead(verificationQueryOptions(code), options)
}
