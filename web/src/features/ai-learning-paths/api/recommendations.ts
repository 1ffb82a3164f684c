import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'
import type { RecommendationRequest } from '../lib/forms'

/** One recommended path (spec 001 §3); estimatedDuration in hours, moduleSequence of module ids. */
export const recommendedPathSchema = z.object({
  id: z.string(),
  name: z.string(),
  difficulty: z.string().catch(''),
  description: z.string().catch(''),
  estimatedDuration: z.number().catch(0),
  moduleSequence: z.array(z.string()).catch([]),
})
export type RecommendedPath = z.infer<typeof recommendedPathSchema>

export const recommendationsSchema = z.object({
  reasoningExplanation: z.string().catch(''),
  recommendedPaths: z.array(recommendedPathSchema).catch([]),
  personalizedModifications: z.array(z.string()).catch([]),
  estimatedOutcomes: z.array(z.string()).catch([]),
})
export type Recommendations = z.infer<typeof recommendationsSchema>

/**
 * Reads a recommendation set ({recommendations: {...}}, the §3 response), a
 * bare set, or the list GET answers ([] before the first Generate, else the
 * newest set first).
 */
export function parseRecommendations(body: unknown): Recommendations | null {
  if (Array.isArray(body)) return body.length ? parseRecommendations(body[0]) : null
  if (!body || typeof body !== 'object') return null
  const raw = 'recommendations' in body ? body.recommendations : body
  if (!raw || typeof raw !== 'object' || !('recommendedPaths' in raw)) return null
  return recommendationsSchema.parse(raw)
}

export const recommendationsKey = ['/api/ai-learning/recommendations'] as const

/** GET /api/ai-learning/recommendations: the latest set, null when none was generated. */
export async function fetchRecommendations(): Promise<Recommendations | null> {
  const res = await fetch(recommendationsKey[0], { credentials: 'include' })
  if (res.status === 404) return null
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`)
  return parseRecommendations(await res.json())
}

export const recommendationsQuery = queryOptions({ queryKey: recommendationsKey, queryFn: fetchRecommendations })

export function useRecommendations() {
  return useQuery(recommendationsQuery)
}

/** POST /api/ai-learning/generate-recommendations. */
export async function generateRecommendations(request: RecommendationRequest): Promise<Recommendations> {
  const res = await apiRequest('POST', '/api/ai-learning/generate-recommendations', request)
  const parsed = parseRecommendations(await res.json())
  if (!parsed) throw new Error('The server answered without recommendations')
  return parsed
}

export function useGenerateRecommendations() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: generateRecommendations,
    onSuccess: (recs) => queryClient.setQueryData(recommendationsKey, recs),
  })
}
