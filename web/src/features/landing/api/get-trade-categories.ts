import { queryOptions, useQuery } from '@tanstack/react-query'

/** The trades with their certifications; the landing page does not show them (spec 000 §7: result not used). */
export const tradeCategoriesQuery = queryOptions<unknown>({ queryKey: ['/api/trade-categories'] })

export function useTradeCategories() {
  return useQuery(tradeCategoriesQuery)
}
