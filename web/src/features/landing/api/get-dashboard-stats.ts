import { queryOptions, useQuery } from '@tanstack/react-query'
import { normalizeDashboardStats } from '../lib/dashboard-stats'

/**
 * GET /api/analytics/dashboard-stats through the app's default query
 * function (the key is the path); missing values become 0.
 */
export const dashboardStatsQuery = queryOptions({
  queryKey: ['/api/analytics/dashboard-stats'],
  select: (raw: unknown) => normalizeDashboardStats(raw),
})

export function useDashboardStats() {
  return useQuery(dashboardStatsQuery)
}
