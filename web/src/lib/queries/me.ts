import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'

export const meSchema = z.object({ id: z.string(), displayName: z.string().catch(''), guest: z.boolean().catch(true) })
export type Me = z.infer<typeof meSchema>

/** GET /api/me: the caller's guest identity, whose id names their per-learner paths. */
export async function fetchMe(): Promise<Me> {
  const res = await fetch('/api/me', { credentials: 'include' })
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`)
  return meSchema.parse(await res.json())
}

export const meQuery = queryOptions({ queryKey: ['/api/me'], queryFn: fetchMe })

export function useMe() {
  return useQuery(meQuery)
}
