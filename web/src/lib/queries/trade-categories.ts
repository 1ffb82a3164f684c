import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'

/** A trade as GET /api/trade-categories gives it. */
export const tradeSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  certifications: z.array(z.string()),
})
export type Trade = z.infer<typeof tradeSchema>

/** GET /api/trade-categories: the trades with their certifications. */
export const tradesQuery = queryOptions({
  queryKey: ['/api/trade-categories'],
  select: (raw: unknown): Trade[] => z.array(tradeSchema).parse(raw),
})

export function useTrades() {
  return useQuery(tradesQuery)
}
