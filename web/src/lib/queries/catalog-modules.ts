import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'

/** A catalog module as GET /api/training-modules gives it. */
export const catalogModuleSchema = z.object({
  id: z.string(),
  tradeId: z.string(),
  title: z.string(),
  description: z.string(),
  difficulty: z.string(),
  estimatedDuration: z.number(),
  learningObjectives: z.array(z.string()),
  safetyPoints: z.array(z.string()),
  prerequisites: z.array(z.string()),
  categories: z.array(z.string()),
})
export type CatalogModule = z.infer<typeof catalogModuleSchema>

/** GET /api/training-modules: the whole catalog, in catalog order. */
export const catalogModulesQuery = queryOptions({
  queryKey: ['/api/training-modules'],
  select: (raw: unknown): CatalogModule[] => z.array(catalogModuleSchema).parse(raw),
})

export function useCatalogModules() {
  return useQuery(catalogModulesQuery)
}
