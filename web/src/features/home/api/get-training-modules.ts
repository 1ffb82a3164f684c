import { z } from 'zod/mini'
import { apiRequest } from '@/lib/api'

/**
 * The fields of a training module the home page reads. Loose, so the cache
 * entry it shares with other screens under the same key keeps every field.
 */
export const moduleRefSchema = z.looseObject({
  id: z.string(),
  tradeId: z.string(),
  prerequisites: z.optional(z.array(z.string())),
})

export const trainingModulesSchema = z.array(moduleRefSchema)

/** GET /api/training-modules, validated. */
export async function getTrainingModules(): Promise<z.infer<typeof trainingModulesSchema>> {
  const res = await apiRequest('GET', '/api/training-modules')
  return trainingModulesSchema.parse(await res.json())
}
