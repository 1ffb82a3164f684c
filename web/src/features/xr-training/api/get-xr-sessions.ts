import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'

/** Sessions the history tab shows (spec 001 §9). */
export const HISTORY_LIMIT = 10

/** An item of GET /api/users/{userId}/xr-sessions (newest first). */
export const sessionSummarySchema = z.object({
  id: z.string(),
  moduleId: z.string(),
  moduleTitle: z.string().nullish(),
  sessionType: z.string(),
  startedAt: z.string(),
  endedAt: z.string().nullish(),
  duration: z.number().nullish(),
  completionStatus: z.string().nullish(),
  outcome: z.string().nullish(),
  safetyScore: z.number().nullish(),
  /** Whether the server verified the ended session; false while it runs (internal/server/sessions.go). */
  verified: z.boolean().nullish(),
  /** Why not, in the learner's words. */
  verificationIssues: z.array(z.string()).nullish(),
})
export type SessionSummary = z.infer<typeof sessionSummarySchema>

export async function getXRSessions(userId: string): Promise<SessionSummary[]> {
  const res = await apiRequest('GET', `/api/users/${encodeURIComponent(userId)}/xr-sessions?limit=${HISTORY_LIMIT}`)
  return z.array(sessionSummarySchema).parse(await res.json())
}

export const xrSessionsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: ['/api/users', userId, 'xr-sessions'], queryFn: () => getXRSessions(userId) })

export function useXRSessions(userId: string | undefined) {
  return useQuery({ ...xrSessionsQueryOptions(userId ?? ''), enabled: !!userId })
}
