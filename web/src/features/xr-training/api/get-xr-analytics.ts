import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'

const count = z.number().nullish().transform((n) => n ?? 0) // missing values count as 0 (spec 001 §2)

/** GET /api/users/{userId}/xr-analytics. */
export const xrAnalyticsSchema = z.object({
  totalSessions: count,
  totalDuration: count,
  averageSafetyScore: count,
  completedModules: count,
  tradeProgress: z
    .array(
      z.object({
        tradeId: z.string(),
        tradeName: z.string(),
        completed: count,
        total: count,
        percent: count,
      }),
    )
    .nullish()
    .transform((t) => t ?? []),
})
export type XRAnalytics = z.infer<typeof xrAnalyticsSchema>

export async function getXRAnalytics(userId: string): Promise<XRAnalytics> {
  const res = await apiRequest('GET', `/api/users/${encodeURIComponent(userId)}/xr-analytics`)
  return xrAnalyticsSchema.parse(await res.json())
}

export const xrAnalyticsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: ['/api/users', userId, 'xr-analytics'], queryFn: () => getXRAnalytics(userId) })

export function useXRAnalytics(userId: string | undefined) {
  return useQuery({ ...xrAnalyticsQueryOptions(userId ?? ''), enabled: !!userId })
}
