import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'
import { initialPreferences, type LearningPreferences } from '../lib/forms'

const list = z.array(z.string()).catch([])

/** Saved learning preferences; missing fields take the screen's initial values. */
export const learningPreferencesSchema = z.object({
  preferredLearningStyle: z.string().catch(initialPreferences.preferredLearningStyle),
  xrComfortLevel: z.string().catch(initialPreferences.xrComfortLevel),
  sessionDuration: z.number().catch(initialPreferences.sessionDuration),
  industryExperience: z.number().catch(initialPreferences.industryExperience),
  learningGoals: z.string().catch(''),
  difficultyProgression: z.string().catch(initialPreferences.difficultyProgression),
  focusAreas: list,
  availableTimeSlots: list,
  certificationGoals: list,
})

export const learningPreferencesKey = ['/api/ai-learning/learning-preferences'] as const

/** GET /api/ai-learning/learning-preferences; null when none are saved. */
export async function fetchLearningPreferences(): Promise<LearningPreferences | null> {
  const res = await fetch(learningPreferencesKey[0], { credentials: 'include' })
  if (res.status === 404) return null
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`)
  const body: unknown = await res.json()
  if (!body || typeof body !== 'object') return null
  const raw = 'preferences' in body ? body.preferences : body
  return raw ? learningPreferencesSchema.parse(raw) : null
}

export const learningPreferencesQuery = queryOptions({ queryKey: learningPreferencesKey, queryFn: fetchLearningPreferences })

export function useLearningPreferences() {
  return useQuery(learningPreferencesQuery)
}

/** POST /api/ai-learning/learning-preferences. */
export async function saveLearningPreferences(prefs: LearningPreferences): Promise<LearningPreferences> {
  await apiRequest('POST', learningPreferencesKey[0], prefs)
  return prefs
}

export function useSaveLearningPreferences() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveLearningPreferences,
    onSuccess: (saved) => queryClient.setQueryData(learningPreferencesKey, saved),
  })
}
