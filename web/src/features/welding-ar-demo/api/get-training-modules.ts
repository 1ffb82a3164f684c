import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'

/** GET /api/training-modules, the fields the simulator needs to pick a welding module (its own cache key: other pages parse more fields). */
export const catalogModuleSchema = z.object({ id: z.string(), tradeId: z.string(), title: z.string() })
export type CatalogModule = z.infer<typeof catalogModuleSchema>

export async function getCatalogModules(): Promise<CatalogModule[]> {
  const res = await apiRequest('GET', '/api/training-modules')
  return z.array(catalogModuleSchema).parse(await res.json())
}

export const catalogModulesQueryOptions = () => queryOptions({ queryKey: ['welding-ar-demo', '/api/training-modules'], queryFn: getCatalogModules })

export function useCatalogModules() {
  return useQuery(catalogModulesQueryOptions())
}
