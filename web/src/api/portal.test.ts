import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeApi } from '@/test/fake-api'
import * as answers from '@/test/portal-answers'
import { sessionSummary } from '@/test/server-answers'
import { getSessionsPage, xrSessionKeys } from './xr-sessions'
import { cohortLearnersQueryOptions, cohortLearnersSchema, learnerDetailSchema, portalKeys, keepFresherSessions, portalLiveQueryOptions, portalLiveSessionsSchema, sessionReviewSchema, type LearnersParams } from './portal'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const params: LearnersParams = { q: 'bo b', flag: 'alerts', sort: 'sessions', dir: 'desc', limit: 25, offset: 25 }

describe('portal answers', () => {
  it('reads a cohort page whole, the instructor by name', () => {
    const parsed = cohortLearnersSchema.parse(answers.cohortLearners())
    expect(parsed.cohort.instructor).toEqual({ id: answers.cohort().instructor.id, displayName: 'Ivan Instructor' })
    expect(parsed.learners).toEqual(answers.cohortLearners().learners)
    expect(parsed.total).toBe(48)
  })

  it('reads a Go nil list as none', () => {
    expect(cohortLearnersSchema.parse({ ...answers.cohortLearners(), learners: null }).learners).toEqual([])
    const r = sessionReviewSchema.parse({ ...answers.review(), events: null, steps: null, safetyChecks: null })
    expect([r.events, r.steps, r.safetyChecks]).toEqual([[], [], []])
  })

  it('reads a learner and a review whole', () => {
    expect(learnerDetailSchema.parse(answers.learnerDetail())).toEqual(answers.learnerDetail())
    expect(sessionReviewSchema.parse(answers.review())).toEqual(answers.review())
    // A server from before welds were reviewed sends none.
    const { welds: _, ...older } = answers.review()
    expect(sessionReviewSchema.parse(older).welds).toEqual([])
  })

  it('refuses a figure that is not a whole number, and a step status it does not know', () => {
    expect(cohortLearnersSchema.safeParse(answers.cohortLearners([answers.figures({ sessions: 1.5 })])).success).toBe(false)
    const r = answers.review()
    r.steps[0].status = 'paused'
    expect(sessionReviewSchema.safeParse(r).success).toBe(false)
  })
})

describe('requests', () => {
  it('asks for a cohort page with every setting', async () => {
    const fetchMock = fakeApi({ [`GET /api/portal/cohorts/${answers.cohortId}/learners`]: { body: answers.cohortLearners() } })
    await cohortLearnersQueryOptions(answers.cohortId, params).queryFn!({} as never)
    expect(fetchMock.mock.calls[0][0]).toBe(`/api/portal/cohorts/${answers.cohortId}/learners?q=bo+b&flag=alerts&sort=sessions&dir=desc&limit=25&offset=25`)
  })

  it('reads a page of sessions and its total from X-Total-Count', async () => {
    const fetchMock = fakeApi({ [`GET /api/users/${answers.learnerId}/xr-sessions`]: { body: [sessionSummary()], headers: { 'X-Total-Count': '31' } } })
    const page = await getSessionsPage(answers.learnerId, { limit: 10, offset: 30 })
    expect(page.total).toBe(31)
    expect(page.sessions.map((s) => s.id)).toEqual([sessionSummary().id])
    expect(fetchMock.mock.calls[0][0]).toBe(`/api/users/${answers.learnerId}/xr-sessions?limit=10&offset=30`)
  })

  it('keys a page apart from the plain list, and a review under the learner', () => {
    expect(xrSessionKeys.page('u', { limit: 10, offset: 0 })).not.toEqual(xrSessionKeys.list('u'))
    expect(portalKeys.review('u', 's').slice(0, 3)).toEqual([...xrSessionKeys.list('u')])
  })
})

describe('the live view', () => {
  it("reads the running sessions whole, and leaves out one it cannot read", () => {
    const running = answers.liveSession()
    const done = answers.liveSession({ sessionId: 'done', step: null, stepsDone: 6 })
    expect(portalLiveSessionsSchema.parse([running, done])).toEqual([running, done])
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(portalLiveSessionsSchema.parse([answers.liveSession({ status: 'paused' }), running]).map((s) => s.sessionId)).toEqual([answers.sessionId])
    expect(portalLiveSessionsSchema.parse(null)).toEqual([])
  })

  it('keeps a fresher copy of a session when an older answer arrives, and lets the answer say which sessions run', () => {
    const held = [answers.liveSession({ updatedAt: '2026-11-23T22:26:00Z', stepsDone: 2 }), answers.liveSession({ sessionId: 'gone' })]
    const next = [answers.liveSession({ updatedAt: '2026-11-23T22:25:00Z', stepsDone: 1 }), answers.liveSession({ sessionId: 'new' })]
    expect(keepFresherSessions(held, next)).toEqual([held[0], next[1]])
    expect(keepFresherSessions(undefined, next)).toBe(next)
  })

  it('asks for the list afresh each time', () => {
    expect(portalLiveQueryOptions().staleTime).toBe(0)
    expect(portalLiveQueryOptions().queryKey.slice(0, 1)).toEqual([...portalKeys.all])
  })
})
