import { useEffect, useLayoutEffect, useRef } from 'react'
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'
import { analyticsKeys } from '@/api/analytics'
import { learningKeys } from '@/api/learning'
import { count, listOf, segment, strings, text, totalCount, useRead, type ReadOptions } from '@/api/parse'

/*
 * XR session records (internal/server/sessions.go, internal/training).
 *
 *   POST  /api/xr-sessions                  → 201 Session
 *   PATCH /api/xr-sessions/{id}             → 200 Session (an update, or the end when endedAt is sent)
 *   GET   /api/users/{userId}/xr-sessions   → SessionSummary[], newest first (the server's default page: 20)
 *   GET   /api/users/{userId}/xr-sessions?limit&offset → one page of them; X-Total-Count: all of them
 */

/** Session types a training session can run in (spec 001 §9). */
export const sessionTypes = ['desktop', 'vr', 'ar'] as const
export type SessionType = (typeof sessionTypes)[number]

export interface Vec3 {
  x: number
  y: number
  z: number
}
export interface Quat {
  x: number
  y: number
  z: number
  w: number
}

/** The camera or headset pose sent with each update. */
export interface Pose {
  position: Vec3
  rotation: Quat
}

/** How the learner acted: mouse, keyboard, or an XR pointer (ray = controller select or pinch ray, grab = squeeze or pinch nearby). */
export type InputKind = 'mouse' | 'keyboard' | 'ray' | 'grab' | 'touch' | 'other'

/** One recorded learner action (spec 001 §3: timestamp and sessionTime in ms since start). */
export interface Interaction {
  action: string
  objectId?: string
  stepId?: string
  input: InputKind
  timestamp: string
  sessionTime: number
  seq: number
}

export const safetyCheckResultSchema = z.object({ id: z.string(), status: z.enum(['passed', 'skipped']) })
export type SafetyCheckResult = z.infer<typeof safetyCheckResultSchema>

const vec3Schema = z.object({ x: z.number(), y: z.number(), z: z.number() })
const quatSchema = z.object({ x: z.number(), y: z.number(), z: z.number(), w: z.number() })

/** The XR session record the server stores (training.Session): the answer to a start, an update and an end. */
export const sessionRecordSchema = z.object({
  id: z.string(),
  userId: z.string().optional(),
  moduleId: z.string(),
  moduleTitle: z.string().optional(),
  sessionType: z.string(),
  deviceType: z.string().optional(),
  startedAt: z.string(),
  endedAt: z.string().nullish(),
  /** Seconds. */
  duration: z.number().nullish(),
  /** in_progress or completed. */
  completionStatus: z.string().nullish(),
  position: vec3Schema.nullish().catch(null),
  rotation: quatSchema.nullish().catch(null),
  interactionData: z
    .object({
      /** An update's answer lists only the interactions it stored; the end's lists them all. */
      interactions: z.array(z.unknown()).nullish(),
      safetyChecks: z.array(safetyCheckResultSchema).nullish(),
      /** '' while running, then passed or failed. */
      completionStatus: z.string().nullish(),
    })
    .nullish(),
  /** Percent, set when the session ends. */
  safetyScore: z.number().nullish(),
  updatedAt: z.string().nullish(),
  /** When the server received the start; null on records from before verification. */
  serverStartedAt: z.string().nullish(),
  /** Whether the server could verify the ended session (internal/training/verify.go); false while it runs. */
  verified: z.boolean().nullish(),
  /** Why it is not verified, in the learner's words. */
  verificationIssues: z.array(z.string()).nullish(),
})
export type SessionRecord = z.infer<typeof sessionRecordSchema>

/**
 * A session in a list (training.SessionSummary): the record without its
 * interaction data. Read field by field: an item the server sends without
 * its module or start time still shows, with what it has.
 */
export const sessionSummarySchema = z.object({
  id: z.string(),
  userId: text,
  moduleId: text,
  moduleTitle: text,
  sessionType: z.string().catch('desktop'),
  /** The headset or browser it ran on; '' when the record has none. */
  deviceType: text,
  /** null when the record has none. */
  startedAt: z.string().nullable().catch(null),
  endedAt: z.string().nullable().catch(null),
  /** Seconds. */
  duration: count,
  /** in_progress or completed; 'completed' when missing (spec 001 §2). */
  completionStatus: z.string().catch('completed'),
  /** '' while running, then passed or failed. */
  outcome: text,
  /** Percent; null until the session ends. */
  safetyScore: z.number().nullable().catch(null),
  updatedAt: z.string().nullable().catch(null),
  /** null on an answer that does not say (an older server). */
  verified: z.boolean().nullable().catch(null),
  verificationIssues: strings,
  /**
   * The scene's checks as the server judged them when the session ended;
   * [] while it runs. null on an answer that does not carry them (an older
   * server), which is not the same as a module without checks.
   */
  safetyChecks: z.array(safetyCheckResultSchema).nullable().catch(null),
})
export type SessionSummary = z.infer<typeof sessionSummarySchema>

export const sessionSummariesSchema = listOf(sessionSummarySchema, 'GET /api/users/{userId}/xr-sessions')

/** A session as the learning pages count it (analytics, hub, account). */
export interface LearningSession {
  moduleId: string
  moduleTitle: string
  sessionType: string
  /** '' when the record has none. */
  startedAt: string
  /** Seconds. */
  duration: number
  completionStatus: string
  safetyScore: number | null
  /** passed or failed once ended; 'unverified' for a pass the server could not verify, which completes no module. */
  outcome: string
}

/** A session's result: running, or passed or failed once ended. */
export function outcomeLabel(completionStatus: string, outcome: string): string {
  if (completionStatus === 'in_progress') return 'In progress'
  if (outcome === 'passed') return 'Passed'
  if (outcome === 'failed') return 'Failed'
  return 'No result'
}

/**
 * A session's outcome as it counts: 'unverified' for a pass the server could
 * not verify. Records from before verification existed carry no flag and
 * count as they did.
 */
export function judgedOutcome<T extends string | null | undefined>(outcome: T, verified: boolean | null | undefined): T | 'unverified' {
  return outcome === 'passed' && verified === false ? 'unverified' : outcome
}

/** The learning pages' reading of the list (a select): sessions of no module count for nothing and are left out. */
export function learningSessions(list: SessionSummary[]): LearningSession[] {
  return list
    .filter((s) => s.moduleId !== '')
    .map((s) => ({
      moduleId: s.moduleId,
      moduleTitle: s.moduleTitle,
      sessionType: s.sessionType,
      startedAt: s.startedAt ?? '',
      duration: s.duration,
      completionStatus: s.completionStatus,
      safetyScore: s.safetyScore,
      outcome: judgedOutcome(s.outcome, s.verified),
    }))
}

export interface SessionsPageParams {
  /** 1..100 */
  limit: number
  offset: number
}

/** One page of a learner's sessions and how many they have in all. */
export interface SessionsPage {
  sessions: SessionSummary[]
  total: number
}

export const xrSessionKeys = {
  list: (userId: string) => ['/api/users', userId, 'xr-sessions'] as const,
  /** A page is another answer shape than the list (it carries the total), so it has a key of its own. */
  page: (userId: string, params: SessionsPageParams) => ['/api/users', userId, 'xr-sessions', params] as const,
}

/** The server's largest page (store.MaxSessionPage). */
const SESSIONS_PER_REQUEST = 100

/**
 * Every session of a learner, newest first, read page by page up to
 * X-Total-Count. The server's default page holds only the newest 20: the
 * analytics, the hub's modules and the account's count read from this list
 * and would forget everything older. A session started while the pages are
 * read shifts the next page by one; its repeat is dropped.
 */
export async function getAllSessions(userId: string): Promise<SessionSummary[]> {
  const all = new Map<string, SessionSummary>()
  for (let offset = 0; ; offset += SESSIONS_PER_REQUEST) {
    const page = await getSessionsPage(userId, { limit: SESSIONS_PER_REQUEST, offset })
    for (const s of page.sessions) if (!all.has(s.id)) all.set(s.id, s)
    if (page.sessions.length === 0 || offset + SESSIONS_PER_REQUEST >= page.total) return [...all.values()]
  }
}

/** A learner's sessions, all of them; nothing is fetched until the learner is known. */
export const xrSessionsQueryOptions = (userId: string | undefined) =>
  queryOptions({
    queryKey: xrSessionKeys.list(userId ?? ''),
    queryFn: () => getAllSessions(userId ?? ''),
    enabled: !!userId,
  })

export function useXrSessions<R = SessionSummary[]>(userId: string | undefined, options?: ReadOptions<SessionSummary[], R>) {
  return useRead(xrSessionsQueryOptions(userId), options)
}

/** GET /api/users/{userId}/xr-sessions?limit&offset: one page, newest first, and the total from X-Total-Count. */
export async function getSessionsPage(userId: string, params: SessionsPageParams): Promise<SessionsPage> {
  const search = new URLSearchParams({ limit: String(params.limit), offset: String(params.offset) })
  const res = await apiRequest('GET', `/api/users/${segment(userId)}/xr-sessions?${search}`)
  const sessions = sessionSummariesSchema.parse(await res.json())
  return { sessions, total: totalCount(res, params.offset, sessions.length) }
}

export const xrSessionsPageQueryOptions = (userId: string, params: SessionsPageParams) =>
  queryOptions({ queryKey: xrSessionKeys.page(userId, params), queryFn: () => getSessionsPage(userId, params) })

/** A page of a learner's sessions; the previous page stays on screen while the next loads, so the table does not jump. */
export function useXrSessionsPage(userId: string, params: SessionsPageParams) {
  return useQuery({ ...xrSessionsPageQueryOptions(userId, params), placeholderData: keepPreviousData })
}

export interface NewSessionInput {
  moduleId: string
  sessionType: SessionType
  deviceType: string
  startedAt: string
  userId?: string
}

export interface SessionUpdateInput {
  position?: Pose['position']
  rotation?: Pose['rotation']
  interactionData: { interactions: Interaction[]; safetyChecks: SafetyCheckResult[] }
  /** Seconds since the session started. */
  duration: number
}

export interface SessionEndInput extends SessionUpdateInput {
  endedAt: string
  /** Fields the caller sends along (moduleId, sessionType…); the server checks they match. */
  extra?: Record<string, unknown>
}

async function sendSession(method: 'POST' | 'PATCH', url: string, body: unknown, options?: { keepalive?: boolean }): Promise<SessionRecord> {
  const res = await apiRequest(method, url, body, options)
  return sessionRecordSchema.parse(await res.json())
}

/** What a learner's session changes on the server: their session list and analytics, and the platform's figures. */
function invalidateLearner(queryClient: QueryClient, record: SessionRecord, how: { refetch: boolean }) {
  const refetchType = how.refetch ? 'active' : 'none'
  const user = record.userId ? analyticsKeys.user(record.userId) : ['/api/users']
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: user, refetchType }),
    queryClient.invalidateQueries({ queryKey: analyticsKeys.dashboardStats, refetchType }),
  ])
}

/** POST /api/xr-sessions: the answer's id is the session id. The learner's list gains the running session. */
export function useStartSession() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: NewSessionInput) => sendSession('POST', '/api/xr-sessions', input),
    onSuccess: (record) => void invalidateLearner(queryClient, record, { refetch: true }),
  })
}

/**
 * PATCH /api/xr-sessions/{id}: the periodic update after each recorded
 * interaction. It changes the session's duration in the lists, which are
 * marked stale but not fetched again at every interaction.
 */
export function useUpdateSession() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, update }: { id: string; update: SessionUpdateInput }) => sendSession('PATCH', `/api/xr-sessions/${segment(id)}`, update),
    onSuccess: (record) => void invalidateLearner(queryClient, record, { refetch: false }),
  })
}

/**
 * PATCH /api/xr-sessions/{id} with endedAt: ends the session and the server
 * scores it. The learner's sessions, analytics and refreshers, and the
 * platform's figures, change.
 */
export function useEndSession() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, end }: { id: string; end: SessionEndInput }) => sendSession('PATCH', `/api/xr-sessions/${segment(id)}`, endBody(end)),
    onSuccess: (record) => ended(queryClient, record),
  })
}

/** The PATCH body that ends a session. */
function endBody({ extra, ...fields }: SessionEndInput) {
  return { ...extra, ...fields, completionStatus: 'completed' }
}

function ended(queryClient: QueryClient, record: SessionRecord) {
  void invalidateLearner(queryClient, record, { refetch: true })
  void queryClient.invalidateQueries({ queryKey: learningKeys.refreshers })
}

/** A running session as it would end now: what useEndSessionOnLeave sends. */
export interface LeftSession {
  id: string
  end: SessionEndInput
}

/**
 * Ends the running session when the learner leaves it midway, for another
 * page of the app (the caller unmounts) or by closing or reloading the tab
 * (pagehide): nothing else would end it, and it would stay in progress for
 * ever. The end goes with keepalive, so it outlives the page, and the
 * server judges it as any other (a procedure left unfinished fails).
 * `leave()` forgets the caller's session and returns it, or null when none
 * runs.
 */
export function useEndSessionOnLeave(leave: () => LeftSession | null) {
  const queryClient = useQueryClient()
  const latest = useRef(leave)
  useLayoutEffect(() => {
    latest.current = leave
  })
  useEffect(() => {
    const onLeave = () => {
      const left = latest.current()
      if (!left) return
      sendSession('PATCH', `/api/xr-sessions/${segment(left.id)}`, endBody(left.end), { keepalive: true })
        .then((record) => ended(queryClient, record))
        .catch((err: unknown) => console.error('Could not end the session left', err)) // the page may be gone: no one else to tell
    }
    window.addEventListener('pagehide', onLeave)
    return () => {
      window.removeEventListener('pagehide', onLeave)
      onLeave()
    }
  }, [queryClient])
}
