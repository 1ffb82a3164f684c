import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import { analyticsKeys, dashboardStatsSchema, xrAnalyticsQueryOptions, xrAnalyticsSchema } from '@/api/analytics'
import { fakeApi } from '@/test/fake-api'
import * as answers from '@/test/server-answers'

let warn: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('dashboard stats', () => {
  it("keeps the numbers the server sends", () => {
    expect(dashboardStatsSchema.parse(answers.dashboardStats())).toEqual(answers.dashboardStats())
  })

  it.each([
    ['an empty object', {}],
    ['null', null],
    ['a list', [1, 2]],
    ['strings and NaN', { activeLearners: '3', totalCertifications: null, totalXrSessions: Number.NaN, averageSafetyScore: 'high' }],
  ])('counts missing or wrong values in %s as 0 (spec 000 §5)', (_, raw) => {
    expect(dashboardStatsSchema.parse(raw)).toEqual({ activeLearners: 0, totalCertifications: 0, totalXrSessions: 0, averageSafetyScore: 0, scope: 'platform' })
  })

  it("keeps an organisation's scope, and reads a missing or unknown one as the platform's", () => {
    expect(dashboardStatsSchema.parse({ ...answers.dashboardStats(), scope: 'organisation' }).scope).toBe('organisation')
    const { scope: _scope, ...unscoped } = answers.dashboardStats()
    expect(dashboardStatsSchema.parse(unscoped).scope).toBe('platform')
    expect(dashboardStatsSchema.parse({ ...unscoped, scope: 'galaxy' })).toEqual({ ...unscoped, scope: 'platform' })
  })

  it('keeps the good figures next to a bad one', () => {
    expect(dashboardStatsSchema.parse({ ...answers.dashboardStats(), totalXrSessions: 'many' })).toEqual({ ...answers.dashboardStats(), totalXrSessions: 0 })
  })
})

describe('xr-analytics', () => {
  it("reads the server's answer whole", () => {
    expect(xrAnalyticsSchema.parse(answers.xrAnalytics())).toEqual(answers.xrAnalytics())
  })

  it('reads an answer without tradeProgress with an empty one, and keeps its figures', () => {
    const { tradeProgress: _tp, ...rest } = answers.xrAnalytics()
    expect(xrAnalyticsSchema.parse(rest)).toEqual({ ...rest, tradeProgress: [] })
    expect(xrAnalyticsSchema.parse({ ...rest, tradeProgress: null }).tradeProgress).toEqual([])
    expect(xrAnalyticsSchema.parse({ ...rest, tradeProgress: 'soon' }).tradeProgress).toEqual([])
  })

  it('leaves out a broken trade and keeps the others; a trade without a name shows its id', () => {
    const [electrical, plumbing] = answers.xrAnalytics().tradeProgress
    const { tradeName: _name, ...unnamed } = plumbing
    const parsed = xrAnalyticsSchema.parse({ ...answers.xrAnalytics(), tradeProgress: [{ percent: 40 }, electrical, unnamed] })
    expect(parsed.tradeProgress).toEqual([electrical, { ...unnamed, tradeName: 'plumbing' }])
    expect(warn).toHaveBeenCalledWith('xr-analytics tradeProgress: left out 1 item that could not be read')
  })

  it('counts missing figures as 0 (spec 001 §2)', () => {
    expect(xrAnalyticsSchema.parse({})).toEqual({ totalSessions: 0, totalDuration: 0, averageSafetyScore: 0, completedModules: 0, tradeProgress: [] })
  })

  it('is fetched for the learner under their key, and not before the learner is known', async () => {
    const fetchMock = fakeApi({ [`GET /api/users/${answers.userId}/xr-analytics`]: { body: answers.xrAnalytics() } })
    const client = new QueryClient()
    await client.fetchQuery(xrAnalyticsQueryOptions(answers.userId))
    expect(fetchMock).toHaveBeenCalledWith(`/api/users/${answers.userId}/xr-analytics`, { credentials: 'include' })
    expect(client.getQueryData(analyticsKeys.xrAnalytics(answers.userId))).toEqual(answers.xrAnalytics())
    expect(xrAnalyticsQueryOptions(undefined).enabled).toBe(false)
  })
})
