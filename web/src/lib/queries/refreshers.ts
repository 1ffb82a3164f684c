import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'

/** One module's spaced-repetition schedule (FSRS) as the server reports it. */
export const refresherSchema = z.looseObject({
  moduleId: z.string(),
  moduleTitle: z.string().optional(),
  due: z.string(),
  stability: z.number().catch(0),
  difficulty: z.number().catch(0),
  reps: z.number().catch(0),
  lapses: z.number().catch(0),
  state: z.string().catch(''),
  retrievability: z.number().optional(),
})
export type Refresher = z.infer<typeof refresherSchema>

export const refreshersKey = ['/api/ai-learning/refreshers'] as const

/** GET /api/ai-learning/refreshers: the refreshers due now, most overdue first; empty when none. */
export async function fetchRefreshers(): Promise<Refresher[]> {
  const res = await fetch(refreshersKey[0], { credentials: 'include' })
  if (res.status === 404) return []
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`)
  const body: unknown = await res.json()
  const raw = Array.isArray(body)
    ? body
    : body && typeof body === 'object'
      ? 'due' in body
        ? body.due
        : 'refreshers' in body
          ? body.refreshers
          : []
      : []
  return z.array(refresherSchema).catch([]).parse(raw)
}

export const refreshersQuery = queryOptions({ queryKey: refreshersKey, queryFn: fetchRefreshers })

export function useRefreshers() {
  return useQuery(refreshersQuery)
}
