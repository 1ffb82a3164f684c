import { queryOptions, useQuery } from '@tanstack/react-query'

/** The caller's AI learning preferences, read whole (spec 000 §7); shown on /ai-learning-paths, cached here for it. */
export const learningPreferencesQuery = queryOptions<unknown>({ queryKey: ['/api/ai-learning/learning-preferences'] })

export function useLearningPreferences() {
  return useQuery(learningPreferencesQuery)
}
