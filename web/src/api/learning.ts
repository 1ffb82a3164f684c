import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'
import { count, listOf, load, strings, text, useRead, type ReadOptions } from '@/api/parse'

/*
 * AI learning paths (internal/server/learning.go): every call is about the
 * caller.
 *
 *   GET  /api/ai-learning/learning-preferences     → preferences {…, saved, updatedAt}
 *   POST /api/ai-learning/learning-preferences     → the stored preferences, same shape
 *   GET  /api/ai-learning/skill-assessments        → {assessments: StoredAssessment[] newest first, initial}
 *   POST /api/ai-learning/skill-assessment         → 201 StoredAssessment
 *   GET  /api/ai-learning/recommendations          → [] or [the newest RecommendationSet]
 *   POST /api/ai-learning/generate-recommendations → 201 RecommendationSet
 *   GET  /api/ai-learning/refreshers               → {now, due: Refresher[], upcoming: Refresher[]}
 */

/** Learning preferences as the AI screen edits and saves them (spec 001 §3). */
export interface LearningPreferences {
  preferredLearningStyle: string
  xrComfortLevel: string
  sessionDuration: number
  industryExperience: number
  learningGoals: string
  difficultyProgression: string
  focusAreas: string[]
  availableTimeSlots: string[]
  certificationGoals: string[]
}

/** A skill assessment as the AI screen edits and saves it (spec 001 §3). */
export interface SkillAssessment {
  tradeCategory: string
  skillAreas: string[]
  currentLevels: string[]
  strengths: string[]
  improvementAreas: string[]
  overallScore: number
  assessmentType: string
}

/** The initial preferences of the AI screen (spec 000 §9), which are also the server's until the learner saves. */
export const initialPreferences: LearningPreferences = {
  preferredLearningStyle: 'mixed',
  sessionDuration: 30,
  difficultyProgression: 'gradual',
  xrComfortLevel: 'beginner',
  focusAreas: [],
  availableTimeSlots: [],
  learningGoals: '',
  industryExperience: 0,
  certificationGoals: [],
}

/** The initial assessment of the AI screen (spec 000 §9). */
export const initialAssessment: SkillAssessment = {
  tradeCategory: 'electrical',
  skillAreas: [],
  currentLevels: [],
  strengths: [],
  improvementAreas: [],
  overallScore: 0,
  assessmentType: 'initial',
}

/** The learner's preferences; a field the server leaves out takes its initial value. */
export const learningPreferencesSchema = z.object({
  preferredLearningStyle: z.string().catch(initialPreferences.preferredLearningStyle),
  xrComfortLevel: z.string().catch(initialPreferences.xrComfortLevel),
  /** Minutes. */
  sessionDuration: z.number().catch(initialPreferences.sessionDuration),
  /** Years. */
  industryExperience: z.number().catch(initialPreferences.industryExperience),
  learningGoals: text,
  difficultyProgression: z.string().catch(initialPreferences.difficultyProgression),
  focusAreas: strings,
  availableTimeSlots: strings,
  certificationGoals: strings,
  /** false: these are the initial values, nothing saved yet. */
  saved: z.boolean().catch(false),
  updatedAt: z.string().nullable().catch(null),
})
export type SavedLearningPreferences = z.infer<typeof learningPreferencesSchema>

/** The fields the form edits, without what only the server writes. */
export function preferencesOf({ saved: _saved, updatedAt: _updatedAt, ...prefs }: SavedLearningPreferences): LearningPreferences {
  return prefs
}

const assessmentFields = {
  tradeCategory: z.string().catch(initialAssessment.tradeCategory),
  skillAreas: strings,
  currentLevels: strings,
  strengths: strings,
  improvementAreas: strings,
  /** Percent. */
  overallScore: z.number().catch(0),
  assessmentType: z.string().catch(initialAssessment.assessmentType),
}

export const skillAssessmentSchema = z.object(assessmentFields)

/** A saved assessment: its id, the level its score places the learner at, and when. */
export const storedAssessmentSchema = z.object({
  id: z.number(),
  ...assessmentFields,
  level: text,
  createdAt: text,
})
export type StoredAssessment = z.infer<typeof storedAssessmentSchema>

/** GET /api/ai-learning/skill-assessments; without "initial" the form starts from the latest assessment, else the initial values. */
export const skillAssessmentsSchema = z
  .object({
    assessments: listOf(storedAssessmentSchema, 'GET /api/ai-learning/skill-assessments').catch([]),
    initial: skillAssessmentSchema.optional().catch(undefined),
  })
  .transform(({ assessments, initial }) => {
    const latest = assessments[0]
    const fallback: SkillAssessment = latest ? assessmentOf(latest) : initialAssessment
    return { assessments, initial: initial ?? fallback }
  })
export type SkillAssessments = z.infer<typeof skillAssessmentsSchema>

function assessmentOf({ id: _id, level: _level, createdAt: _createdAt, ...a }: StoredAssessment): SkillAssessment {
  return a
}

/** One recommended path (spec 001 §3): estimatedDuration in hours, moduleSequence of module ids. */
export const recommendedPathSchema = z.object({
  id: z.string(),
  name: z.string(),
  difficulty: text,
  description: text,
  estimatedDuration: count,
  moduleSequence: strings,
})
export type RecommendedPath = z.infer<typeof recommendedPathSchema>

export const recommendationsSchema = z.object({
  reasoningExplanation: text,
  recommendedPaths: listOf(recommendedPathSchema, 'recommendedPaths').catch([]),
  personalizedModifications: strings,
  estimatedOutcomes: strings,
})
export type Recommendations = z.infer<typeof recommendationsSchema>

/** The body of POST /api/ai-learning/generate-recommendations. */
export interface RecommendationRequest {
  tradeCategory: string
  currentSkillLevel: string
  timeConstraints: { hoursPerWeek: number; preferredSessionLength: number }
  focusAreas: string[]
}

/** A generated set: the request with its defaults filled, and the recommendations. */
export const recommendationSetSchema = z.object({
  id: count,
  createdAt: text,
  request: z
    .object({
      tradeCategory: text,
      currentSkillLevel: text,
      timeConstraints: z.object({ hoursPerWeek: count, preferredSessionLength: count }).catch({ hoursPerWeek: 0, preferredSessionLength: 0 }),
      focusAreas: strings,
    })
    .catch({ tradeCategory: '', currentSkillLevel: '', timeConstraints: { hoursPerWeek: 0, preferredSessionLength: 0 }, focusAreas: [] }),
  recommendations: recommendationsSchema,
})
export type RecommendationSet = z.infer<typeof recommendationSetSchema>

/** GET /api/ai-learning/recommendations: [] before the first Generate, else the newest set. */
export const recommendationSetsSchema = listOf(recommendationSetSchema, 'GET /api/ai-learning/recommendations')

/** The newest set's recommendations, null before the first Generate: a select for pages. */
export function latestRecommendations(sets: RecommendationSet[]): Recommendations | null {
  return sets[0]?.recommendations ?? null
}

/** One module's spaced-repetition schedule (FSRS) as the server reports it. */
export const refresherSchema = z.object({
  moduleId: z.string(),
  moduleTitle: text,
  tradeId: text,
  /** When the refresher is due (RFC 3339). */
  due: z.string(),
  lastReview: text,
  state: text,
  reps: count,
  lapses: count,
  /** Days until recall falls to 90%. */
  stability: count,
  /** 1 (easy) to 10 (hard). */
  difficulty: count,
  elapsedDays: count,
  scheduledDays: count,
  /** 0–1: FSRS's estimate that the learner still recalls the module now. */
  retrievability: z.number().optional().catch(undefined),
})
export type Refresher = z.infer<typeof refresherSchema>

export const refreshersSchema = z.object({
  now: text,
  /** Due at or before now, most overdue first. */
  due: listOf(refresherSchema, 'refreshers due').catch([]),
  /** Due later, soonest first. */
  upcoming: listOf(refresherSchema, 'refreshers upcoming').catch([]),
})
export type Refreshers = z.infer<typeof refreshersSchema>

/** The refreshers due now: a select for pages. */
export function dueRefreshers(r: Refreshers): Refresher[] {
  return r.due
}

export const learningKeys = {
  preferences: ['/api/ai-learning/learning-preferences'] as const,
  assessments: ['/api/ai-learning/skill-assessments'] as const,
  recommendations: ['/api/ai-learning/recommendations'] as const,
  refreshers: ['/api/ai-learning/refreshers'] as const,
}

export const learningPreferencesQueryOptions = () =>
  queryOptions({ queryKey: learningKeys.preferences, queryFn: () => load('/api/ai-learning/learning-preferences', learningPreferencesSchema) })

export const skillAssessmentsQueryOptions = () =>
  queryOptions({ queryKey: learningKeys.assessments, queryFn: () => load('/api/ai-learning/skill-assessments', skillAssessmentsSchema) })

export const recommendationsQueryOptions = () =>
  queryOptions({ queryKey: learningKeys.recommendations, queryFn: () => load('/api/ai-learning/recommendations', recommendationSetsSchema) })

export const refreshersQueryOptions = () =>
  queryOptions({ queryKey: learningKeys.refreshers, queryFn: () => load('/api/ai-learning/refreshers', refreshersSchema) })

export function useLearningPreferences<R = SavedLearningPreferences>(options?: ReadOptions<SavedLearningPreferences, R>) {
  return useRead(learningPreferencesQueryOptions(), options)
}

export function useSkillAssessments<R = SkillAssessments>(options?: ReadOptions<SkillAssessments, R>) {
  return useRead(skillAssessmentsQueryOptions(), options)
}

export function useRecommendations<R = RecommendationSet[]>(options?: ReadOptions<RecommendationSet[], R>) {
  return useRead(recommendationsQueryOptions(), options)
}

export function useRefreshers<R = Refreshers>(options?: ReadOptions<Refreshers, R>) {
  return useRead(refreshersQueryOptions(), options)
}

/** POST /api/ai-learning/learning-preferences; the answer is the new GET answer. */
export function useSaveLearningPreferences() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (prefs: LearningPreferences) => {
      const res = await apiRequest('POST', '/api/ai-learning/learning-preferences', prefs)
      return learningPreferencesSchema.parse(await res.json())
    },
    onSuccess: (saved) => queryClient.setQueryData(learningKeys.preferences, saved),
  })
}

/** POST /api/ai-learning/skill-assessment → the stored assessment, which heads the list from now on. */
export function useSaveSkillAssessment() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (assessment: SkillAssessment) => {
      const res = await apiRequest('POST', '/api/ai-learning/skill-assessment', assessment)
      return storedAssessmentSchema.parse(await res.json())
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: learningKeys.assessments }),
  })
}

/** POST /api/ai-learning/generate-recommendations → the new set, which is now the GET's one item. */
export function useGenerateRecommendations() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (request: RecommendationRequest) => {
      const res = await apiRequest('POST', '/api/ai-learning/generate-recommendations', request)
      return recommendationSetSchema.parse(await res.json())
    },
    onSuccess: (set) => queryClient.setQueryData<RecommendationSet[]>(learningKeys.recommendations, [set]),
  })
}
