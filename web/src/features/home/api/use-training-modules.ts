import { queryOptions, useQuery } from '@tanstack/react-query'
import type { ModuleRef } from '../lib/trade-demo'

/**
 * The catalog query. Its fetcher (and with it zod) is imported on first use:
 * the trade demo that needs it sits far below the fold, and keeping zod out
 * of the home page's first chunks saves ~18 KB gzipped of initial JavaScript.
 */
export function trainingModulesQueryOptions() {
  return queryOptions<ModuleRef[]>({
    queryKey: ['/api/training-modules'],
    queryFn: async () => (await import('./get-training-modules')).getTrainingModules(),
  })
}

/** The catalog's modules, fetched once `enabled` (the demo is near the viewport). */
export function useTrainingModules(enabled: boolean) {
  return useQuery({ ...trainingModulesQueryOptions(), enabled })
}
