import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'

/**
 * A server module as this page shows it: only id, title and description
 * (spec 000 §2); other fields are ignored.
 */
export const landingModuleSchema = z.object({ id: z.string(), title: z.string(), description: z.string() })
export type LandingModule = z.infer<typeof landingModuleSchema>

/** GET /api/training-modules, reduced to what the landing page shows. */
export const landingModulesQuery = queryOptions({
  queryKey: ['/api/training-modules'],
  select: (raw: unknown): LandingModule[] => z.array(landingModuleSchema).parse(raw),
})

export function useLandingModules() {
  return useQuery(landingModulesQuery)
}
