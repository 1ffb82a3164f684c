import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest, ApiError } from '@/lib/api'
import { listOf, load, segment, text } from '@/api/parse'
import { sessionSummarySchema } from '@/api/xr-sessions'

/*
 * What is happening now on the caller's channel (their organisation's, or
 * the demo channel of everyone outside one). The live messages themselves
 * come over the WebSocket (lib/realtime.ts); these are the lists.
 *
 *   GET /api/live-sessions  → SessionSummary[] of sessions not ended and updated in the last 10 minutes, most recent first
 *   GET /api/safety-alerts?limit=N              → SafetyAlert[], newest first
 *   POST /api/safety-alerts/{id}/acknowledge {}  → SafetyAlert with its acknowledgement (staff of the
 *        alert's organisation; 409 already acknowledged, naming who and when; 404 not in the caller's organisation)
 */

/** A running session someone may watch: a session summary that names its learner and module. */
export const liveSessionSchema = sessionSummarySchema.extend({
  userId: z.string(),
  moduleId: z.string(),
})
export type LiveSession = z.infer<typeof liveSessionSchema>

/** Who acknowledged an alert, and when (ISO). */
export const alertAcknowledgementSchema = z.object({
  userId: text,
  displayName: text,
  at: z.string(),
})
export type AlertAcknowledgement = z.infer<typeof alertAcknowledgementSchema>

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
  /** null until an instructor or admin acknowledges it; older answers and messages lack it. */
  acknowledgement: alertAcknowledgementSchema.nullable().catch(null),
})
export type SafetyAlert = z.infer<typeof safetyAlertSchema>

export const liveSessionsSchema = listOf(liveSessionSchema, 'GET /api/live-sessions')
export const safetyAlertsSchema = listOf(safetyAlertSchema, 'GET /api/safety-alerts')

export const realtimeKeys = {
  liveSessions: ['/api/live-sessions'] as const,
  safetyAlerts: ['/api/safety-alerts'] as const,
  /** The newest `limit` alerts: under safetyAlerts, so what invalidates the alerts invalidates every length of list. */
  recentSafetyAlerts: (limit: number) => ['/api/safety-alerts', { limit }] as const,
}

// staleTime 0: whether someone is training right now must be asked afresh each time.
export const liveSessionsQueryOptions = () =>
  queryOptions({ queryKey: realtimeKeys.liveSessions, queryFn: () => load('/api/live-sessions', liveSessionsSchema), staleTime: 0 })

// staleTime 0 too: alerts arrive all the time; the list is the state when asked.
export const safetyAlertsQueryOptions = () =>
  queryOptions({ queryKey: realtimeKeys.safetyAlerts, queryFn: () => load('/api/safety-alerts', safetyAlertsSchema), staleTime: 0 })

/** The newest `limit` alerts of the caller's organisation (1..100 on the server). */
export const recentSafetyAlertsQueryOptions = (limit: number) =>
  queryOptions({
    queryKey: realtimeKeys.recentSafetyAlerts(limit),
    queryFn: () => load(`/api/safety-alerts?limit=${limit}`, safetyAlertsSchema),
    staleTime: 0,
  })

/** The live sessions, fetched only when enabled (a Join or Stream click). */
export function useLiveSessions(enabled: boolean) {
  return useQuery({ ...liveSessionsQueryOptions(), enabled })
}

export function useSafetyAlerts(enabled = true) {
  return useQuery({ ...safetyAlertsQueryOptions(), enabled })
}

export function useRecentSafetyAlerts(limit: number) {
  return useQuery(recentSafetyAlertsQueryOptions(limit))
}

/**
 * POST /api/safety-alerts/{id}/acknowledge. The stored answer replaces the
 * alert in every list already read; a 409 (someone acknowledged it first)
 * reads the lists again, so the page shows who did.
 */
export function useAcknowledgeSafetyAlert() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (id: number) => safetyAlertSchema.parse(await (await apiRequest('POST', `/api/safety-alerts/${segment(String(id))}/acknowledge`, {})).json()),
    onSuccess: (alert) => {
      queryClient.setQueriesData<SafetyAlert[]>({ queryKey: realtimeKeys.safetyAlerts }, (list) => list?.map((a) => (a.id === alert.id ? alert : a)))
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) void queryClient.invalidateQueries({ queryKey: realtimeKeys.safetyAlerts })
    },
  })
}
