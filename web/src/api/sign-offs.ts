import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest, ApiError } from '@/lib/api'
import { certificateKeys, storedCertificateSchema } from '@/api/certificates'
import { segment } from '@/api/parse'
import { portalKeys } from '@/api/portal'

/*
 * An instructor's word on a learner's competencies (internal/server/competencies.go).
 * The competencies answer itself is read through api/certificates.ts, whose
 * key and schema the account and certificate pages share; these are the
 * writes, which only the portal makes.
 *
 *   POST /api/users/{userId}/competencies/sign-off {moduleId, competencies?, practical?, note?} → {certificate: StoredCertificate|null}
 *        the certificate is the one this sign-off issued by completing the programme.
 *        400 bad input, 403 own competencies, 409 no verified pass of the module or already signed off
 *   POST /api/users/{userId}/competencies/revoke {moduleId, competencies?, note} → {certificate: StoredCertificate|null}
 *        the certificate it revoked, if any. 400 without a reason, 409 not signed off
 */

/** The server's bound on a sign-off's note and a revocation's reason (portal.MaxNote), in characters. */
export const MAX_NOTE = 1000

export interface SignOffInput {
  moduleId: string
  /** Indexes into the module's learning objectives. Always sent: "omitted = all" would also name ones already signed off. */
  competencies: number[]
  /** Checked in practice on the shop floor; the note then says what was checked. */
  practical: boolean
  note: string
}

export interface RevokeInput {
  moduleId: string
  competencies: number[]
  /** Why: required. */
  note: string
}

export const signOffResultSchema = z.object({ certificate: storedCertificateSchema.nullable() })
export type SignOffResult = z.infer<typeof signOffResultSchema>

/**
 * What a sign-off or a revocation changes: the learner's competencies (and
 * the certificates listed with them), any certificate page already read,
 * the learner's portal figures and the cohort lists that show them.
 * Awaited, so that a mutation is done only once the page shows its effect.
 */
function invalidateAfterSignOff(queryClient: QueryClient, userId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: certificateKeys.competencies(userId) }),
    queryClient.invalidateQueries({ queryKey: ['/api/certificates'] }),
    queryClient.invalidateQueries({ queryKey: portalKeys.learner(userId) }),
    queryClient.invalidateQueries({ queryKey: portalKeys.cohortLearnersAll }),
  ])
}

async function post(url: string, body: unknown): Promise<SignOffResult> {
  const res = await apiRequest('POST', url, body)
  return signOffResultSchema.parse(await res.json())
}

/**
 * A 409 means the page was out of date (another instructor signed off
 * meanwhile, or a pass it showed is not one): read the competencies again
 * so the page shows what the server holds.
 */
function refreshOnConflict(queryClient: QueryClient, userId: string) {
  return (error: Error) => {
    if (error instanceof ApiError && error.status === 409) void queryClient.invalidateQueries({ queryKey: certificateKeys.competencies(userId) })
  }
}

/** POST …/competencies/sign-off for one learner. */
export function useSignOff(userId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: SignOffInput) => post(`/api/users/${segment(userId)}/competencies/sign-off`, input),
    onSuccess: () => invalidateAfterSignOff(queryClient, userId),
    onError: refreshOnConflict(queryClient, userId),
  })
}

/** POST …/competencies/revoke for one learner. */
export function useRevokeSignOff(userId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: RevokeInput) => post(`/api/users/${segment(userId)}/competencies/revoke`, input),
    onSuccess: () => invalidateAfterSignOff(queryClient, userId),
    onError: refreshOnConflict(queryClient, userId),
  })
}
