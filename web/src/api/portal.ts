import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'
import { cohortSchema, memberRoles } from '@/api/organisation'
import { listOf, load, segment } from '@/api/parse'

/*
 * The instructor's portal (internal/portal): learners' figures by cohort,
 * one learner's figures, and the review of one recorded session.
 *
 *   GET /api/portal/cohorts/{id}/learners?q&flag&sort&dir&limit&offset → CohortLearners (403 another instructor's cohort)
 *   GET /api/portal/learners/{userId}                                  → LearnerDetail
 *   GET /api/users/{userId}/xr-sessions/{id}/review                    → SessionReview
 *   GET /api/portal/cohorts/{id}/export.csv, /api/portal/learners/{userId}/export.csv: files, linked, never fetched here
 *
 * The live view (issue 12 item 2): the organisation's running sessions; their
 * changes then arrive over /ws (live_session messages, after watch_live).
 *
 *   GET  /api/portal/live                         → PortalLiveSession[], most recently updated first (at most 100)
 *   POST /api/portal/live/{sessionId}/message {text}   → 202 {}; the learner's player gets instructor_message
 *   POST /api/portal/live/{sessionId}/stop {reason}    → 202 {}; the learner's player gets instructor_stop and ends the session
 *        404 not a session of the caller's organisation, 409 it has ended, 400 naming the field
 */

/** A list the server may send as null (a Go nil slice): read as no items. */
const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullable()
    .transform((items) => items ?? [])

/** What an instructor sees of one learner's training (portal.LearnerFigures); every figure is the server's. */
export const figuresSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  email: z.string(),
  /** Every session the learner started. */
  sessions: z.number().int(),
  /** The sum of their recorded durations, in seconds. */
  timeSeconds: z.number().int(),
  /** The latest update of any session; null when there is none. */
  lastActive: z.string().nullable(),
  /** Modules with a verified, passed session. */
  modulesCompleted: z.number().int(),
  /** Percent, one decimal, over ended verified sessions; null without one. */
  averageSafetyScore: z.number().nullable(),
  alerts: z.number().int(),
  refreshersDue: z.number().int(),
  unverifiedSessions: z.number().int(),
})
export type Figures = z.infer<typeof figuresSchema>

export const cohortLearnersSchema = z.object({
  cohort: cohortSchema,
  /** Every learner matching q and flag, not only this page. */
  total: z.number().int(),
  learners: list(figuresSchema),
})
export type CohortLearners = z.infer<typeof cohortLearnersSchema>

/** The learner lists' filters: who needs the instructor's attention. */
export const learnerFlags = ['refreshersDue', 'unverified', 'alerts', 'inactive'] as const
export type LearnerFlag = (typeof learnerFlags)[number]

/** The columns a learner list sorts by, as the server names them. */
export const learnerSortKeys = [
  'displayName',
  'sessions',
  'timeSeconds',
  'lastActive',
  'modulesCompleted',
  'averageSafetyScore',
  'alerts',
  'refreshersDue',
  'unverifiedSessions',
] as const
export type LearnerSortKey = (typeof learnerSortKeys)[number]
export type SortDirection = 'asc' | 'desc'

export interface LearnersParams {
  /** Matched inside the name or the email; '' for everyone. */
  q: string
  flag: LearnerFlag | null
  sort: LearnerSortKey
  dir: SortDirection
  /** 1..100 */
  limit: number
  offset: number
}

export const learnerDetailSchema = z.object({
  learner: z.object({
    id: z.string(),
    displayName: z.string(),
    email: z.string(),
    role: z.enum(memberRoles),
    cohorts: list(z.object({ id: z.string(), name: z.string() })),
  }),
  figures: figuresSchema,
})
export type LearnerDetail = z.infer<typeof learnerDetailSchema>

export const stepStatuses = ['completed', 'skipped', 'missed'] as const
export type StepStatus = (typeof stepStatuses)[number]

/** A session replayed against its scene (training.ReviewSteps); times are the session's own clock, in ms since its start. */
export const sessionReviewSchema = z.object({
  session: z.object({
    id: z.string(),
    moduleId: z.string(),
    moduleTitle: z.string(),
    sessionType: z.string(),
    deviceType: z.string(),
    startedAt: z.string(),
    endedAt: z.string().nullable(),
    /** Seconds. */
    duration: z.number(),
    completionStatus: z.string(),
    /** passed or failed once ended, '' before. */
    outcome: z.string(),
    safetyScore: z.number().nullable(),
    verified: z.boolean(),
    verificationIssues: list(z.string()),
  }),
  /** In the scene's order. A missed step has no times. */
  steps: list(
    z.object({
      id: z.string(),
      instruction: z.string(),
      safetyCheckId: z.string().optional(),
      status: z.enum(stepStatuses),
      startMs: z.number().nullable(),
      endMs: z.number().nullable(),
      durationMs: z.number().nullable(),
    }),
  ),
  safetyChecks: list(z.object({ id: z.string(), description: z.string(), status: z.enum(['passed', 'skipped']) })),
  /** Every recorded interaction, in the order stored. */
  events: list(
    z.object({
      seq: z.number().int(),
      sessionTime: z.number(),
      kind: z.string(),
      stepId: z.string(),
      objectId: z.string(),
    }),
  ),
  /**
   * The AR welding simulator's welds in the session, in the order recorded,
   * with the quality the server works out from their final readings; [] for
   * none (and from a server that does not say).
   */
  welds: list(
    z.object({
      seq: z.number().int(),
      sessionTime: z.number(),
      technique: z.string(),
      material: z.string(),
      position: z.string(),
      metrics: z.record(z.string(), z.number()),
      qualityScore: z.number(),
      qualityLabel: z.string(),
    }),
  ).default([]),
})
export type SessionReview = z.infer<typeof sessionReviewSchema>
export type ReviewWeld = SessionReview['welds'][number]
export type ReviewStep = SessionReview['steps'][number]
export type ReviewEvent = SessionReview['events'][number]

/** The server's bound on an instructor's message and a stop's reason, in characters. */
export const MAX_LIVE_TEXT = 500

export const liveSafetyCheckStatuses = ['passed', 'skipped', 'pending'] as const
export type LiveSafetyCheckStatus = (typeof liveSafetyCheckStatuses)[number]

/**
 * A running session as the live view shows it (portal.LiveSession). Every
 * figure is the server's, judged from the recorded steps. status 'ended'
 * arrives only in a live_session message, once, when the session ends.
 */
export const portalLiveSessionSchema = z.object({
  sessionId: z.string(),
  userId: z.string(),
  learnerName: z.string(),
  moduleId: z.string(),
  moduleTitle: z.string(),
  sessionType: z.string(),
  startedAt: z.string(),
  updatedAt: z.string(),
  status: z.enum(['running', 'ended']),
  /** passed or failed once ended, '' before. */
  outcome: z.string(),
  /** The first step neither completed nor skipped (index 0-based); null when every step is done. */
  step: z.object({ index: z.number().int(), total: z.number().int(), id: z.string(), instruction: z.string() }).nullable(),
  /** Steps completed or skipped. */
  stepsDone: z.number().int(),
  stepsTotal: z.number().int(),
  safetyChecks: list(z.object({ id: z.string(), description: z.string(), status: z.enum(liveSafetyCheckStatuses) })),
  /** Interactions recorded so far. */
  interactions: z.number().int(),
})
export type PortalLiveSession = z.infer<typeof portalLiveSessionSchema>
export type LiveSafetyCheck = PortalLiveSession['safetyChecks'][number]

export const portalLiveSessionsSchema = listOf(portalLiveSessionSchema, 'GET /api/portal/live')

export const portalKeys = {
  /** Everything the portal reads under /api/portal: member and cohort changes invalidate it. */
  all: ['/api/portal'] as const,
  /** Every cohort's learner lists, whatever their page: what a change to one learner's figures touches. */
  cohortLearnersAll: ['/api/portal', 'cohorts'] as const,
  cohortLearners: (cohortId: string, params: LearnersParams) => ['/api/portal', 'cohorts', cohortId, 'learners', params] as const,
  learner: (userId: string) => ['/api/portal', 'learners', userId] as const,
  /** Under the learner's /api/users key, so what invalidates their sessions invalidates their reviews. */
  review: (userId: string, sessionId: string) => ['/api/users', userId, 'xr-sessions', sessionId, 'review'] as const,
  /** The organisation's running sessions; live_session messages update this answer in place. */
  live: ['/api/portal', 'live'] as const,
}

async function getJSON<T>(url: string, schema: z.ZodType<T>): Promise<T> {
  const res = await apiRequest('GET', url)
  return schema.parse(await res.json())
}

/** The query string of a learner list; q and flag only when they narrow it. */
export function learnersSearch(params: LearnersParams): URLSearchParams {
  const search = new URLSearchParams()
  if (params.q) search.set('q', params.q)
  if (params.flag) search.set('flag', params.flag)
  search.set('sort', params.sort)
  search.set('dir', params.dir)
  search.set('limit', String(params.limit))
  search.set('offset', String(params.offset))
  return search
}

export const cohortLearnersQueryOptions = (cohortId: string, params: LearnersParams) =>
  queryOptions({
    queryKey: portalKeys.cohortLearners(cohortId, params),
    queryFn: () => getJSON(`/api/portal/cohorts/${segment(cohortId)}/learners?${learnersSearch(params)}`, cohortLearnersSchema),
  })

/** A page of a cohort's learners; the previous page stays on screen while the next loads, so the table does not jump. */
export function useCohortLearners(cohortId: string, params: LearnersParams) {
  return useQuery({ ...cohortLearnersQueryOptions(cohortId, params), placeholderData: keepPreviousData })
}

export const learnerQueryOptions = (userId: string) =>
  queryOptions({ queryKey: portalKeys.learner(userId), queryFn: () => getJSON(`/api/portal/learners/${segment(userId)}`, learnerDetailSchema) })

export function useLearner(userId: string) {
  return useQuery(learnerQueryOptions(userId))
}

export const sessionReviewQueryOptions = (userId: string, sessionId: string) =>
  queryOptions({
    queryKey: portalKeys.review(userId, sessionId),
    queryFn: () => getJSON(`/api/users/${segment(userId)}/xr-sessions/${segment(sessionId)}/review`, sessionReviewSchema),
  })

export function useSessionReview(userId: string, sessionId: string, enabled = true) {
  return useQuery({ ...sessionReviewQueryOptions(userId, sessionId), enabled })
}

/** The CSV files, linked for the browser to download with the session cookie. */
export const cohortExportUrl = (cohortId: string) => `/api/portal/cohorts/${segment(cohortId)}/export.csv`
export const learnerExportUrl = (userId: string) => `/api/portal/learners/${segment(userId)}/export.csv`

/**
 * How a new copy of the list replaces the held one: the new list says which
 * sessions run, but a session the held list has in a fresher state (a
 * live_session message that arrived while the answer was on its way) keeps
 * that state.
 */
export function keepFresherSessions(held: unknown, next: unknown): unknown {
  if (!Array.isArray(held) || !Array.isArray(next)) return next
  const byId = new Map((held as PortalLiveSession[]).map((s) => [s.sessionId, s]))
  return (next as PortalLiveSession[]).map((s) => {
    const h = byId.get(s.sessionId)
    return h && Date.parse(h.updatedAt) > Date.parse(s.updatedAt) ? h : s
  })
}

// staleTime 0: who is training right now is asked afresh each time the page opens.
export const portalLiveQueryOptions = () =>
  queryOptions({
    queryKey: portalKeys.live,
    queryFn: () => load('/api/portal/live', portalLiveSessionsSchema),
    staleTime: 0,
    structuralSharing: keepFresherSessions,
  })

export function usePortalLive() {
  return useQuery(portalLiveQueryOptions())
}

/** POST …/message: a message shown on the learner's screen. */
export function useSendLiveMessage(sessionId: string) {
  return useMutation({
    mutationFn: async (text: string) => {
      await apiRequest('POST', `/api/portal/live/${segment(sessionId)}/message`, { text })
    },
  })
}

/** POST …/stop: the learner's player ends the session as its End Session button does. */
export function useStopLiveSession(sessionId: string) {
  return useMutation({
    mutationFn: async (reason: string) => {
      await apiRequest('POST', `/api/portal/live/${segment(sessionId)}/stop`, { reason })
    },
  })
}
