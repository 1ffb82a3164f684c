import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'
import { initialAssessment, type SkillAssessment } from '../lib/forms'

const list = z.array(z.string()).catch([])

/** One saved assessment; the server may add an id and a time. */
export const skillAssessmentSchema = z.object({
  tradeCategory: z.string().catch(initialAssessment.tradeCategory),
  skillAreas: list,
  currentLevels: list,
  strengths: list,
  improvementAreas: list,
  overallScore: z.number().catch(0),
  assessmentType: z.string().catch('initial'),
})

export const skillAssessmentsKey = ['/api/ai-learning/skill-assessments'] as const

/** The learner's assessments, newest first, and what the form starts with. */
export interface AssessmentHistory {
  assessments: SkillAssessment[]
  /** The latest assessment's fields, or the screen's initial values before the first. */
  initial: SkillAssessment
}

/** GET /api/ai-learning/skill-assessments. */
export async function fetchSkillAssessments(): Promise<AssessmentHistory> {
  const res = await fetch(skillAssessmentsKey[0], { credentials: 'include' })
  if (res.status === 404) return { assessments: [], initial: initialAssessment }
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`)
  const body: unknown = await res.json()
  const raw = Array.isArray(body) ? body : body && typeof body === 'object' && 'assessments' in body ? body.assessments : []
  const assessments = z.array(skillAssessmentSchema).catch([]).parse(raw)
  const initial =
    body && typeof body === 'object' && 'initial' in body ? skillAssessmentSchema.catch(initialAssessment).parse(body.initial) : (assessments[0] ?? initialAssessment)
  return { assessments, initial }
}

export const skillAssessmentsQuery = queryOptions({ queryKey: skillAssessmentsKey, queryFn: fetchSkillAssessments })

export function useSkillAssessments() {
  return useQuery(skillAssessmentsQuery)
}

/** POST /api/ai-learning/skill-assessment. */
export async function saveSkillAssessment(assessment: SkillAssessment): Promise<SkillAssessment> {
  await apiRequest('POST', '/api/ai-learning/skill-assessment', assessment)
  return assessment
}

export function useSaveSkillAssessment() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveSkillAssessment,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: skillAssessmentsKey }),
  })
}
