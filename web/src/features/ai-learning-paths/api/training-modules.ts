import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'

/** A catalog module, as much of it as this screen shows. */
export const catalogModuleSchema = z.looseObject({
  id: z.string(),
  tradeId: z.string().catch(''),
  title: z.string(),
  difficulty: z.string().catch(''),
  estimatedDuration: z.number().catch(0),
})
export type CatalogModule = z.infer<typeof catalogModuleSchema>

// Own key: other features may cache this path's raw JSON under the plain key.
export const trainingModulesKey = ['/api/training-modules', 'ai-learning-paths'] as const

/** GET /api/training-modules: the catalog, to name the modules of a path. */
export async function fetchTrainingModules(): Promise<CatalogModule[]> {
  const res = await fetch(trainingModulesKey[0], { credentials: 'include' })
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`)
  return z.array(catalogModuleSchema).parse(await res.json())
}

export const trainingModulesQuery = queryOptions({ queryKey: trainingModulesKey, queryFn: fetchTrainingModules })

export function useTrainingModules() {
  return useQuery(trainingModulesQuery)
}
