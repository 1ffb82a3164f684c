import { queryOptions, useQuery } from '@tanstack/react-query'

/** The caller's skill assessments, read whole (spec 000 §7); shown on /ai-learning-paths, cached here for it. */
export const skillAssessmentsQuery = queryOptions<unknown>({ queryKey: ['/api/ai-learning/skill-assessments'] })

export function useSkillAssessments() {
  return useQuery(skillAssessmentsQuery)
}
