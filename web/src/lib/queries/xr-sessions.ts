import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'

/** A stored XR session as the learning pages read it. */
export interface SessionRecord {
  moduleId: string
  moduleTitle: string
  sessionType: string
  startedAt: string
  /** Seconds. */
  duration: number
  completionStatus: string
  safetyScore: number | null
  /**
   * passed or failed once ended (the summary's outcome, or a full record's
   * interactionData.completionStatus); 'unverified' for a pass the server
   * could not verify, which completes no module (internal/server/sessions.go).
   */
  outcome: string
}

const sessionSchema = z
  .looseObject({
    moduleId: z.string(),
    moduleTitle: z.string().catch(''),
    sessionType: z.string().catch('desktop'),
    startedAt: z.string().catch(''),
    duration: z.number().catch(0),
    completionStatus: z.string().catch('completed'),
    safetyScore: z.number().nullable().catch(null),
    outcome: z.string().catch(''),
    interactionData: z.looseObject({ completionStatus: z.string().catch('') }).nullable().catch(null),
    // Records from before verification existed carry no flag and count as they did.
    verified: z.boolean().catch(true),
  })
  .transform((s): SessionRecord => {
    const outcome = s.outcome || s.interactionData?.completionStatus || ''
    return {
      moduleId: s.moduleId,
      moduleTitle: s.moduleTitle,
      sessionType: s.sessionType,
      startedAt: s.startedAt,
      duration: s.duration,
      completionStatus: s.completionStatus,
      safetyScore: s.safetyScore,
      outcome: outcome === 'passed' && !s.verified ? 'unverified' : outcome,
    }
  })

/**
 * GET /api/users/{userId}/xr-sessions: the learner's session records. A 404
 * reads as no records, so the hub and the dashboard show their sample data.
 */
export async function fetchXrSessions(userId: string): Promise<SessionRecord[]> {
  const res = await fetch(`/api/users/${encodeURIComponent(userId)}/xr-sessions`, { credentials: 'include' })
  if (res.status === 404) return []
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`)
  const body: unknown = await res.json()
  const raw = Array.isArray(body) ? body : body && typeof body === 'object' && 'sessions' in body ? body.sessions : []
  return z.array(z.unknown()).catch([]).parse(raw).flatMap((item) => {
    const parsed = sessionSchema.safeParse(item)
    return parsed.success ? [parsed.data] : []
  })
}

export function xrSessionsQuery(userId: string | undefined) {
  return queryOptions({
    queryKey: ['/api/users', userId ?? '', 'xr-sessions'],
    queryFn: () => fetchXrSessions(userId ?? ''),
    enabled: !!userId,
  })
}

export function useXrSessions(userId: string | undefined) {
  return useQuery(xrSessionsQuery(userId))
}
