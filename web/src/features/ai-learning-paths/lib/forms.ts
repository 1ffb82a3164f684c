import { z } from 'zod'
import { initialAssessment, initialPreferences, type LearningPreferences, type RecommendationRequest, type SkillAssessment } from '@/api/learning'

// The shapes the forms edit and their initial values are the server's (src/api/learning).
export { initialAssessment, initialPreferences }
export type { LearningPreferences, RecommendationRequest, SkillAssessment }

/** Slider ranges (spec 001 §5). */
export const sessionDurationRange = { min: 15, max: 120, step: 15 } as const
export const industryExperienceRange = { min: 0, max: 20, step: 1 } as const
export const overallScoreRange = { min: 0, max: 100, step: 10 } as const

export const learningStyleOptions = [
  { value: 'visual', label: 'Visual' },
  { value: 'auditory', label: 'Auditory' },
  { value: 'kinesthetic', label: 'Kinesthetic' },
  { value: 'mixed', label: 'Mixed' },
]
export const xrComfortOptions = [
  { value: 'beginner', label: 'Beginner' },
  { value: 'comfortable', label: 'Comfortable' },
  { value: 'expert', label: 'Expert' },
]
export const difficultyProgressionOptions = [
  { value: 'gradual', label: 'Gradual' },
  { value: 'moderate', label: 'Moderate' },
  { value: 'aggressive', label: 'Aggressive' },
]
export const tradeCategoryOptions = [
  { value: 'electrical', label: 'Electrical' },
  { value: 'plumbing', label: 'Plumbing' },
  { value: 'hvac', label: 'HVAC' },
  { value: 'welding', label: 'Welding' },
]
export const assessmentTypeOptions = [
  { value: 'initial', label: 'Initial assessment' },
  { value: 'progress', label: 'Progress check' },
  { value: 'certification', label: 'Certification readiness' },
]

/** Comma-separated input to a list: split on commas, trim, drop empty items (spec 001 §5). */
export function splitList(input: string): string[] {
  return input
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

/** A list back to the comma-separated text the inputs show. */
export function joinList(items: readonly string[]): string {
  return items.join(', ')
}

/** The server's bounds on the free text (internal/learning), in characters, not UTF-16 units. */
export const MAX_LIST_ITEMS = 20
export const MAX_ITEM_LENGTH = 100
export const MAX_GOALS_LENGTH = 2000

const length = (s: string) => [...s].length

/** A comma-separated input, split as the server will store it and held to the server's bounds. */
const listInput = (label: string) =>
  z
    .string()
    .transform(splitList)
    .refine((items) => items.length <= MAX_LIST_ITEMS, `${label} must have at most ${MAX_LIST_ITEMS} items.`)
    .refine((items) => items.every((item) => length(item) <= MAX_ITEM_LENGTH), `Each item in ${label.toLowerCase()} must be at most ${MAX_ITEM_LENGTH} characters.`)

/*
 * The two forms: the lists are edited as text and sent as lists. The
 * choices and sliders only offer allowed values, so they pass as they are;
 * the server checks them.
 */
export const preferencesFormSchema = z.object({
  preferredLearningStyle: z.string(),
  xrComfortLevel: z.string(),
  sessionDuration: z.number(),
  industryExperience: z.number(),
  difficultyProgression: z.string(),
  focusAreas: listInput('Focus areas'),
  certificationGoals: listInput('Certification goals'),
  learningGoals: z.string().refine((s) => length(s) <= MAX_GOALS_LENGTH, `Learning goals must be at most ${MAX_GOALS_LENGTH} characters.`),
})
export type PreferencesFormValues = z.input<typeof preferencesFormSchema>

export const assessmentFormSchema = z.object({
  tradeCategory: z.string(),
  assessmentType: z.string(),
  overallScore: z.number(),
  strengths: listInput('Strengths'),
  improvementAreas: listInput('Improvement areas'),
})
export type AssessmentFormValues = z.input<typeof assessmentFormSchema>

/** What the preferences form starts with. */
export function preferencesFormValues(p: LearningPreferences): PreferencesFormValues {
  return {
    preferredLearningStyle: p.preferredLearningStyle,
    xrComfortLevel: p.xrComfortLevel,
    sessionDuration: p.sessionDuration,
    industryExperience: p.industryExperience,
    difficultyProgression: p.difficultyProgression,
    focusAreas: joinList(p.focusAreas),
    certificationGoals: joinList(p.certificationGoals),
    learningGoals: p.learningGoals,
  }
}

/** What the assessment form starts with. */
export function assessmentFormValues(a: SkillAssessment): AssessmentFormValues {
  return {
    tradeCategory: a.tradeCategory,
    assessmentType: a.assessmentType,
    overallScore: a.overallScore,
    strengths: joinList(a.strengths),
    improvementAreas: joinList(a.improvementAreas),
  }
}

/** Weekly hours for recommendations: floor(session duration × 3 ÷ 60) (spec 001 §9). */
export function hoursPerWeek(sessionDurationMinutes: number): number {
  return Math.floor((sessionDurationMinutes * 3) / 60)
}

/** The skill level the recommendation request states (spec 001 §3: fixed beginner; the server refines it from the latest assessment). */
export const REQUEST_SKILL_LEVEL = 'beginner'

/**
 * Builds the recommendation request from what the learner entered: the
 * assessed trade (electrical when none), the time budget from the session
 * duration, and the preferences' focus areas.
 */
export function buildRecommendationRequest(prefs: LearningPreferences, assessment: SkillAssessment | null): RecommendationRequest {
  return {
    tradeCategory: assessment?.tradeCategory || 'electrical',
    currentSkillLevel: REQUEST_SKILL_LEVEL,
    timeConstraints: {
      hoursPerWeek: hoursPerWeek(prefs.sessionDuration),
      preferredSessionLength: prefs.sessionDuration,
    },
    focusAreas: prefs.focusAreas,
  }
}
