import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ReactNode } from 'react'
import { renderHook, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { analyticsKeys } from '@/api/analytics'
import { learningKeys } from '@/api/learning'
import {
  learningSessions,
  sessionRecordSchema,
  sessionSummariesSchema,
  useEndSession,
  useStartSession,
  useUpdateSession,
  useXrSessions,
  xrSessionKeys,
} from '@/api/xr-sessions'
import { createQueryClient } from '@/lib/api'
import { fakeApi } from '@/test/fake-api'
import * as answers from '@/test/server-answers'

let warn: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('session records', () => {
  it("read the server's answers to a start and an end whole", () => {
    expect(sessionRecordSchema.parse(answers.startedSession())).toEqual(answers.startedSession())
    expect(sessionRecordSchema.parse(answers.endedSession())).toEqual(answers.endedSession())
  })
})

describe('the session list', () => {
  it("reads the server's answer whole", () => {
    const list = [answers.sessionSummary(), answers.sessionSummary({ id: 's2', completionStatus: 'in_progress', endedAt: null, outcome: '', safetyScore: null, verified: false })]
    expect(sessionSummariesSchema.parse(list)).toEqual(list)
  })

  it('shows an item without moduleId or startedAt with what it has, and keeps the others', () => {
    const { moduleId: _m, startedAt: _s, ...partial } = answers.sessionSummary({ id: 'partial' })
    const parsed = sessionSummariesSchema.parse([answers.sessionSummary({ id: 'a' }), partial, answers.sessionSummary({ id: 'b' })])
    expect(parsed.map((s) => s.id)).toEqual(['a', 'partial', 'b'])
    expect(parsed[1]).toMatchObject({ moduleId: '', startedAt: null, moduleTitle: partial.moduleTitle, duration: partial.duration })
    expect(warn).not.toHaveBeenCalled()
  })

  it('leaves out an item without an id, or that is no record at all', () => {
    const { id: _id, ...anonymous } = answers.sessionSummary()
    expect(sessionSummariesSchema.parse([anonymous, 7, answers.sessionSummary()]).map((s) => s.id)).toEqual([answers.sessionSummary().id])
    expect(warn).toHaveBeenCalledWith('GET /api/users/{userId}/xr-sessions: left out 2 items that could not be read')
  })

  it('reads missing fields as the spec says: completed, desktop, 0 s, not verified or not', () => {
    const [s] = sessionSummariesSchema.parse([{ id: 'x' }])
    expect(s).toEqual({
      id: 'x',
      userId: '',
      moduleId: '',
      moduleTitle: '',
      sessionType: 'desktop',
      deviceType: '',
      startedAt: null,
      endedAt: null,
      duration: 0,
      completionStatus: 'completed',
      outcome: '',
      safetyScore: null,
      updatedAt: null,
      verified: null,
      verificationIssues: [],
      // Not known, which is not "none": the portal says so rather than "None in this module".
      safetyChecks: null,
    })
  })

  it('reads the judged safety checks, and a malformed list as not known', () => {
    const [ok, bad] = sessionSummariesSchema.parse([answers.sessionSummary({ id: 'a' }), answers.sessionSummary({ id: 'b', safetyChecks: [{ id: 'x', status: 'maybe' }] })])
    expect(ok.safetyChecks).toHaveLength(5)
    expect(ok.safetyChecks?.every((c) => c.status === 'passed')).toBe(true)
    expect(bad.safetyChecks).toBeNull()
    expect(warn).not.toHaveBeenCalled()
  })

  it('reads for the learning pages: a pass the server could not verify as unverified, sessions of no module left out', () => {
    const list = sessionSummariesSchema.parse([
      answers.sessionSummary({ id: '1', outcome: 'passed', verified: true }),
      answers.sessionSummary({ id: '2', outcome: 'passed', verified: false }),
      answers.sessionSummary({ id: '3', outcome: 'failed', verified: false }),
      { id: '4', outcome: 'passed' },
      answers.sessionSummary({ id: '5', outcome: 'passed', verified: undefined, startedAt: undefined }),
    ])
    const read = learningSessions(list)
    expect(read.map((s) => s.outcome)).toEqual(['passed', 'unverified', 'failed', 'passed'])
    expect(read[3].startedAt).toBe('')
  })
})

describe("a learner's whole list", () => {
  // The server's pages: 20 without a limit, at most 100, and every session's count in X-Total-Count.
  function pagedServer(total: number) {
    const all = Array.from({ length: total }, (_, i) => answers.sessionSummary({ id: `s${i}` }))
    return fakeApi({
      [`GET /api/users/${answers.userId}/xr-sessions`]: ({ url }) => {
        const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), 100)
        const offset = Number(url.searchParams.get('offset') ?? 0)
        return { body: all.slice(offset, offset + limit), headers: { 'X-Total-Count': String(total) } }
      },
    })
  }

  function read() {
    const client = createQueryClient()
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>
    return renderHook(() => useXrSessions(answers.userId), { wrapper }).result
  }

  it('holds every session, not only the first page, for the pages that count them', async () => {
    const fetchMock = pagedServer(230)
    const result = read()
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    expect(result.current.data?.map((s) => s.id)).toEqual(Array.from({ length: 230 }, (_, i) => `s${i}`))
    expect(fetchMock).toHaveBeenCalledTimes(3)
  })

  it('asks once when one page holds them all', async () => {
    const fetchMock = pagedServer(23)
    const result = read()
    await waitFor(() => expect(result.current.data).toHaveLength(23))
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })
})

describe('session mutations', () => {
  const user = answers.userId
  const sessionsKey = xrSessionKeys.list(user)
  const analyticsKey = analyticsKeys.xrAnalytics(user)

  function setup() {
    const fetchMock = fakeApi({
      'POST /api/xr-sessions': { status: 201, body: answers.startedSession() },
      [`PATCH /api/xr-sessions/${answers.startedSession().id}`]: ({ body }) => ({
        body: body && JSON.parse(body).endedAt ? answers.endedSession() : answers.startedSession(),
      }),
    })
    const client: QueryClient = createQueryClient()
    // What the pages had read before the session.
    for (const key of [sessionsKey, analyticsKey, learningKeys.refreshers, analyticsKeys.dashboardStats, learningKeys.preferences]) client.setQueryData(key, { cached: true })
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>
    const stale = () =>
      Object.fromEntries(
        client
          .getQueryCache()
          .getAll()
          .map((q) => [JSON.stringify(q.queryKey), q.state.isInvalidated]),
      )
    return { fetchMock, client, wrapper, stale }
  }

  const key = (k: readonly unknown[]) => JSON.stringify(k)
  const input = { moduleId: 'electrical-lockout-tagout', sessionType: 'desktop' as const, deviceType: 'test', startedAt: '2026-11-23T22:27:26Z' }
  const update = { interactionData: { interactions: [], safetyChecks: [] }, duration: 1 }

  it('start: the learner’s list and the platform figures are read again', async () => {
    const { wrapper, stale, fetchMock } = setup()
    const { result } = renderHook(() => useStartSession(), { wrapper })
    const record = await result.current.mutateAsync(input)
    expect(record.id).toBe(answers.startedSession().id)
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual(input)
    await waitFor(() => expect(stale()[key(sessionsKey)]).toBe(true))
    expect(stale()).toMatchObject({ [key(analyticsKey)]: true, [key(analyticsKeys.dashboardStats)]: true, [key(learningKeys.refreshers)]: false, [key(learningKeys.preferences)]: false })
  })

  it('update: the lists are marked stale, not fetched again at every interaction', async () => {
    const { wrapper, stale, fetchMock } = setup()
    const { result } = renderHook(() => useUpdateSession(), { wrapper })
    await result.current.mutateAsync({ id: answers.startedSession().id, update })
    await waitFor(() => expect(stale()[key(sessionsKey)]).toBe(true))
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(fetchMock.mock.calls[0][1]).toMatchObject({ method: 'PATCH' })
  })

  it('end: completes the record and marks sessions, analytics, refreshers and the platform figures stale', async () => {
    const { wrapper, stale, fetchMock } = setup()
    const { result } = renderHook(() => useEndSession(), { wrapper })
    const record = await result.current.mutateAsync({
      id: answers.startedSession().id,
      end: { ...update, endedAt: '2026-11-23T22:27:30Z', extra: { moduleId: input.moduleId, sessionType: 'desktop' } },
    })
    expect(record.completionStatus).toBe('completed')
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toMatchObject({
      endedAt: '2026-11-23T22:27:30Z',
      completionStatus: 'completed',
      moduleId: input.moduleId,
      sessionType: 'desktop',
    })
    await waitFor(() => expect(stale()[key(learningKeys.refreshers)]).toBe(true))
    expect(stale()).toMatchObject({ [key(sessionsKey)]: true, [key(analyticsKey)]: true, [key(analyticsKeys.dashboardStats)]: true, [key(learningKeys.preferences)]: false })
  })
})
