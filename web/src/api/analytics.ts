import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { count, listOf, load, segment } from '@/api/parse'

/*
 * Figures computed by the server:
 *
 *   GET /api/analytics/dashboard-stats     → outreach.DashboardStats (the landing page's tiles): the caller's
 *                                            organisation's figures, or the platform's for anyone outside one
 *   GET /api/analytics/benchmarks?period   → portal.Benchmarks, the caller's organisation's reference figures
 *                                            (organisation members only)
 *   GET /api/users/{userId}/xr-analytics   → training.Analytics, one learner's XR progress
 *
 * Every figure the server leaves out counts as 0, and a missing or broken
 * part (tradeProgress, say) reads as empty: the page shows what it has.
 */

/** Whose figures the dashboard shows: the caller's organisation's, or the whole platform's. */
export const statsScopes = ['organisation', 'platform'] as const
export type StatsScope = (typeof statsScopes)[number]

const noStats = { activeLearners: 0, totalCertifications: 0, totalXrSessions: 0, averageSafetyScore: 0, scope: 'platform' as StatsScope }

/**
 * The dashboard tiles (spec 000 §3); anything that is not a number counts as
 * 0, an answer that is not an object as all zeros. An answer without a scope
 * (a server from before organisations) was the platform's.
 */
export const dashboardStatsSchema = z
  .object({
    activeLearners: count,
    /** Issued certificates that are not revoked. */
    totalCertifications: count,
    totalXrSessions: count,
    /** Percent, one decimal. */
    averageSafetyScore: count,
    scope: z.enum(statsScopes).catch('platform'),
  })
  .catch(noStats)
export type DashboardStats = z.infer<typeof dashboardStatsSchema>

/** Periods the analytics page and the benchmarks answer know. */
export const benchmarkPeriods = ['7d', '28d', '90d', '1y'] as const
export type BenchmarkPeriod = (typeof benchmarkPeriods)[number]

/**
 * GET /api/analytics/benchmarks: the mean over the organisation's learners
 * with a session in the period of each one's own figure, defined as the
 * analytics page defines a learner's. null where no learner has the figure.
 */
export const benchmarksSchema = z.object({
  /** Learners with a session started in the period. */
  learners: count,
  hoursPerWeek: count,
  averageSafety: z.number().nullable().catch(null),
  /** Percent, whole. */
  passRate: z.number().nullable().catch(null),
  modulesPerMonth: count,
})
export type Benchmarks = z.infer<typeof benchmarksSchema>

/** The share of a trade's modules the learner has completed (training.TradeProgress). */
export const tradeProgressSchema = z
  .object({
    tradeId: z.string(),
    tradeName: z.string().optional().catch(undefined),
    completed: count,
    total: count,
    /** completed ÷ total × 100, rounded. */
    percent: count,
  })
  .transform(({ tradeName, ...t }) => ({ ...t, tradeName: tradeName || t.tradeId }))
export type TradeProgress = z.infer<typeof tradeProgressSchema>

/** GET /api/users/{userId}/xr-analytics (spec 001 §3 XR analytics). */
export const xrAnalyticsSchema = z.object({
  /** Ended sessions. */
  totalSessions: count,
  /** Seconds over every session. */
  totalDuration: count,
  /** Percent over verified scored sessions. */
  averageSafetyScore: count,
  /** Distinct modules with a verified passed session. */
  completedModules: count,
  /** Per trade, in catalog order; [] when the answer has none. */
  tradeProgress: listOf(tradeProgressSchema, 'xr-analytics tradeProgress').catch([]),
})
export type XRAnalytics = z.infer<typeof xrAnalyticsSchema>

export const analyticsKeys = {
  dashboardStats: ['/api/analytics/dashboard-stats'] as const,
  /** Everything under /api/users/{userId}: a learner's sessions and analytics. */
  user: (userId: string) => ['/api/users', userId] as const,
  xrAnalytics: (userId: string) => ['/api/users', userId, 'xr-analytics'] as const,
  benchmarks: (period: BenchmarkPeriod) => ['/api/analytics/benchmarks', period] as const,
}

export const dashboardStatsQueryOptions = () =>
  queryOptions({ queryKey: analyticsKeys.dashboardStats, queryFn: () => load('/api/analytics/dashboard-stats', dashboardStatsSchema) })

/** A learner's analytics; nothing is fetched until the learner is known. */
export const xrAnalyticsQueryOptions = (userId: string | undefined) =>
  queryOptions({
    queryKey: analyticsKeys.xrAnalytics(userId ?? ''),
    queryFn: () => load(`/api/users/${segment(userId ?? '')}/xr-analytics`, xrAnalyticsSchema),
    enabled: !!userId,
  })

/** The caller's organisation's benchmarks; held back unless enabled (the server answers only organisation members). */
export const benchmarksQueryOptions = (period: BenchmarkPeriod, enabled: boolean) =>
  queryOptions({
    queryKey: analyticsKeys.benchmarks(period),
    queryFn: () => load(`/api/analytics/benchmarks?period=${segment(period)}`, benchmarksSchema),
    enabled,
  })

export function useBenchmarks(period: BenchmarkPeriod, enabled: boolean) {
  return useQuery(benchmarksQueryOptions(period, enabled))
}

export function useDashboardStats() {
  return useQuery(dashboardStatsQueryOptions())
}

export function useXRAnalytics(userId: string | undefined) {
  return useQuery(xrAnalyticsQueryOptions(userId))
}
