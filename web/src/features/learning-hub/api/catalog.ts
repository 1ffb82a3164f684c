import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'

const list = z.array(z.string()).catch([])

export const catalogModuleSchema = z.looseObject({
  id: z.string(),
  tradeId: z.string().catch(''),
  title: z.string(),
  difficulty: z.string().catch('beginner'),
  estimatedDuration: z.number().catch(0),
  prerequisites: list,
  learningObjectives: list,
  categories: list,
})

/** GET /api/training-modules: the module catalog. */
export async function fetchTrainingModules() {
  const res = await fetch('/api/training-modules', { credentials: 'include' })
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`)
  return z.array(catalogModuleSchema).parse(await res.json())
}

export const trainingModulesQuery = queryOptions({ queryKey: ['/api/training-modules', 'learning-hub'], queryFn: fetchTrainingModules })

export function useTrainingModules() {
  return useQuery(trainingModulesQuery)
}

export const tradeSchema = z.looseObject({ id: z.string(), name: z.string() })

/** GET /api/trade-categories: the trades, for their display names. */
export async function fetchTrades() {
  const res = await fetch('/api/trade-categories', { credentials: 'include' })
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`)
  return z.array(tradeSchema).parse(await res.json())
}

export const tradesQuery = queryOptions({ queryKey: ['/api/trade-categories', 'learning-hub'], queryFn: fetchTrades })

export function useTrades() {
  return useQuery(tradesQuery)
}
