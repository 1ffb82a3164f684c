import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'

const moduleSchema = z.looseObject({ id: z.string(), tradeId: z.string().catch(''), title: z.string() })
const tradeSchema = z.looseObject({ id: z.string(), name: z.string() })

/** GET /api/training-modules and /api/trade-categories: each trade's module count and name, for trade progress. */
export async function fetchCatalog() {
  const [modules, trades] = await Promise.all(
    ['/api/training-modules', '/api/trade-categories'].map(async (url) => {
      const res = await fetch(url, { credentials: 'include' })
      if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`)
      return (await res.json()) as unknown
    }),
  )
  return { modules: z.array(moduleSchema).parse(modules), trades: z.array(tradeSchema).parse(trades) }
}

export const catalogQuery = queryOptions({ queryKey: ['/api/training-modules', 'analytics-catalog'], queryFn: fetchCatalog })

export function useCatalog() {
  return useQuery(catalogQuery)
}
