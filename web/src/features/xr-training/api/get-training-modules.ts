import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'

/** A catalog module as the center shows it (spec 001 §3: id, title, difficulty, estimatedDuration minutes). */
export const trainingModuleSchema = z.object({
  id: z.string(),
  tradeId: z.string().default(''),
  title: z.string(),
  description: z.string().default(''),
  difficulty: z.string(),
  estimatedDuration: z.number(),
})
export type TrainingModule = z.infer<typeof trainingModuleSchema>

export async function getTrainingModules(): Promise<TrainingModule[]> {
  const res = await apiRequest('GET', '/api/training-modules')
  return z.array(trainingModuleSchema).parse(await res.json())
}

export const trainingModulesQueryOptions = () => queryOptions({ queryKey: ['/api/training-modules'], queryFn: getTrainingModules })

export function useTrainingModules(enabled = true) {
  return useQuery({ ...trainingModulesQueryOptions(), enabled })
}
