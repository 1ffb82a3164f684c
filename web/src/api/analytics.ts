import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { count, listOf, load, segment } from '@/api/parse'

/*
 * Figures computed by the server:
 *
 *   GET /api/analytics/dashboard-stats     → outreach.DashboardStats, platform-wide (the landing page's tiles)
 *   GET /api/users/{userId}/xr-analytics   → training.Analytics, one learner's XR progress
 *
 * Every figure the server leaves out counts as 0, and a missing or broken
 * part (tradeProgress, say) reads as empty: the page shows what it has.
 */

const noStats = { activeLearners: 0, totalCertifications: 0, totalXrSessions: 0, averageSafetyScore: 0 }

/** The dashboard tiles (spec 000 §3); anything that is not a number counts as 0, an answer that is not an object as all zeros. */
export const dashboardStatsSchema = z
  .object({
    activeLearners: count,
    totalCertifications: count,
    totalXrSessions: count,
    /** Percent, one decimal. */
    averageSafetyScore: count,
  })
  .catch(noStats)
export type DashboardStats = z.infer<typeof dashboardStatsSchema>

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

export function useDashboardStats() {
  return useQuery(dashboardStatsQueryOptions())
}

export function useXRAnalytics(userId: string | undefined) {
  return useQuery(xrAnalyticsQueryOptions(userId))
}
