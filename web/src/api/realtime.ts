import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { listOf, load, text } from '@/api/parse'
import { sessionSummarySchema } from '@/api/xr-sessions'

/*
 * What is happening now on the caller's channel (their organisation's, or
 * the demo channel of everyone outside one). The live messages themselves
 * come over the WebSocket (lib/realtime.ts); these are the lists.
 *
 *   GET /api/live-sessions  → SessionSummary[] of sessions not ended and updated in the last 10 minutes, most recent first
 *   GET /api/safety-alerts  → SafetyAlert[], newest first
 */

/** A running session someone may watch: a session summary that names its learner and module. */
export const liveSessionSchema = sessionSummarySchema.extend({
  userId: z.string(),
  moduleId: z.string(),
})
export type LiveSession = z.infer<typeof liveSessionSchema>

/** A raised safety alert (realtime.SafetyAlert). */
export const safetyAlertSchema = z.object({
  id: z.number(),
  userId: text,
  /** The sender's name as others see it. */
  displayName: text,
  /** The room it was raised in; '' when none. */
  sessionId: text,
  /** emergency, help, equipment or general. */
  alertType: z.string().catch('general'),
  description: z.string(),
  createdAt: text,
})
export type SafetyAlert = z.infer<typeof safetyAlertSchema>

export const liveSessionsSchema = listOf(liveSessionSchema, 'GET /api/live-sessions')
export const safetyAlertsSchema = listOf(safetyAlertSchema, 'GET /api/safety-alerts')

export const realtimeKeys = {
  liveSessions: ['/api/live-sessions'] as const,
  safetyAlerts: ['/api/safety-alerts'] as const,
}

// staleTime 0: whether someone is training right now must be asked afresh each time.
export const liveSessionsQueryOptions = () =>
  queryOptions({ queryKey: realtimeKeys.liveSessions, queryFn: () => load('/api/live-sessions', liveSessionsSchema), staleTime: 0 })

// staleTime 0 too: alerts arrive all the time; the list is the state when asked.
export const safetyAlertsQueryOptions = () =>
  queryOptions({ queryKey: realtimeKeys.safetyAlerts, queryFn: () => load('/api/safety-alerts', safetyAlertsSchema), staleTime: 0 })

/** The live sessions, fetched only when enabled (a Join or Stream click). */
export function useLiveSessions(enabled: boolean) {
  return useQuery({ ...liveSessionsQueryOptions(), enabled })
}

export function useSafetyAlerts(enabled = true) {
  return useQuery({ ...safetyAlertsQueryOptions(), enabled })
}
