import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'

/** Who may do what: a guest has no account; an account's role comes from its organisation (learner without one). */
export const roles = ['guest', 'learner', 'instructor', 'admin'] as const
export type Role = (typeof roles)[number]

/**
 * GET /api/me. A server without accounts answered only {id, displayName,
 * guest}; the other fields default from those so a page never breaks on an
 * older answer.
 */
export const meSchema = z
  .object({
    id: z.string(),
    displayName: z.string().catch(''),
    guest: z.boolean().catch(true),
    email: z.string().nullable().default(null),
    role: z.enum(roles).optional(),
    organisation: z.object({ id: z.string(), name: z.string() }).nullable().default(null),
  })
  .transform((me) => ({ ...me, role: me.role ?? (me.guest ? 'guest' : 'learner') }) as const)
export type Me = z.infer<typeof meSchema>

/** GET /api/me: the caller's identity, whose id names their per-learner paths. */
export async function fetchMe(): Promise<Me> {
  const res = await fetch('/api/me', { credentials: 'include' })
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`)
  return meSchema.parse(await res.json())
}

export const meQuery = queryOptions({ queryKey: ['/api/me'], queryFn: fetchMe })

export function useMe() {
  return useQuery(meQuery)
}
