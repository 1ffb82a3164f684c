import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'

/** GET /api/me: the caller's guest identity; its id is the userId of /api/users/{userId}/…. */
export const meSchema = z.object({ id: z.string(), displayName: z.string(), guest: z.boolean() })
export type Me = z.infer<typeof meSchema>

export async function getMe(): Promise<Me> {
  const res = await apiRequest('GET', '/api/me')
  return meSchema.parse(await res.json())
}

export const meQueryOptions = () => queryOptions({ queryKey: ['/api/me'], queryFn: getMe })

export function useMe() {
  return useQuery(meQueryOptions())
}
