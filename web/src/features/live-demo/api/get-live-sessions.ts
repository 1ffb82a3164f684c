import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'

/** One running XR session as GET /api/live-sessions lists it (training.SessionSummary). */
export const liveSessionSchema = z.object({
  id: z.string(),
  userId: z.string(),
  moduleId: z.string(),
  moduleTitle: z.string().optional().default(''),
  sessionType: z.string(),
  startedAt: z.string(),
  updatedAt: z.string().optional(),
})
export type LiveSession = z.infer<typeof liveSessionSchema>

/** GET /api/live-sessions: sessions not ended and updated in the last 10 minutes, most recent first. */
export async function getLiveSessions(): Promise<LiveSession[]> {
  const res = await apiRequest('GET', '/api/live-sessions')
  return z.array(liveSessionSchema).parse(await res.json())
}

// staleTime 0: whether someone is training right now must be asked afresh each time.
export const liveSessionsQueryOptions = () => queryOptions({ queryKey: ['/api/live-sessions'], queryFn: getLiveSessions, staleTime: 0 })

/** The live sessions, fetched only when enabled (a Join or Stream click). */
export function useLiveSessions(enabled: boolean) {
  return useQuery({ ...liveSessionsQueryOptions(), enabled })
}
