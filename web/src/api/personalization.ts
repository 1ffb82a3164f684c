import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'
import { load, useRead, type ReadOptions } from '@/api/parse'

/*
 * The personalization wizard's profile of the caller
 * (internal/server/personalization.go):
 *
 *   GET  /api/personalization       → the profile, saved, updatedAt and applied
 *   POST /api/personalization/save  → the stored profile, same shape
 *
 * Every page reads it at start (the app-wide appearance follows it), so it
 * is read leniently: a field the server leaves out, or a value from a newer
 * server, falls back to the wizard's default instead of breaking the app.
 */

/** A saved personalization profile (spec 001 §3). */
export interface PersonalizationProfile {
  experienceLevel: string
  primaryTrade: string
  learningStyle: string
  xrComfortLevel: number
  preferredSessionLength: number
  motionSensitivity: string
  difficultyProgression: string
  safetyEmphasis: number
  feedbackFrequency: string
  visualAssistance: string[]
  audioAssistance: string[]
  motorAssistance: string[]
  colorScheme: string
  fontSize: string
  uiComplexity: string
}

/** The wizard's defaults (spec 001 §9; the primary trade starts empty, §5), which a missing or malformed field falls back to. */
export const defaultProfile: PersonalizationProfile = {
  experienceLevel: 'beginner',
  primaryTrade: '',
  learningStyle: 'mixed',
  xrComfortLevel: 5,
  preferredSessionLength: 30,
  motionSensitivity: 'medium',
  difficultyProgression: 'moderate',
  safetyEmphasis: 8,
  feedbackFrequency: 'moderate',
  visualAssistance: [],
  audioAssistance: [],
  motorAssistance: [],
  colorScheme: 'default',
  fontSize: 'medium',
  uiComplexity: 'standard',
}

const d = defaultProfile
const options = z.array(z.string()).catch([])

/** The profile's fields, each falling back to its default. */
const profileFields = {
  experienceLevel: z.string().catch(d.experienceLevel),
  primaryTrade: z.string().catch(d.primaryTrade),
  learningStyle: z.string().catch(d.learningStyle),
  /** 1–10. */
  xrComfortLevel: z.number().catch(d.xrComfortLevel),
  /** Minutes: 15, 30, 45 or 60. */
  preferredSessionLength: z.number().catch(d.preferredSessionLength),
  motionSensitivity: z.string().catch(d.motionSensitivity),
  difficultyProgression: z.string().catch(d.difficultyProgression),
  /** 1–10. */
  safetyEmphasis: z.number().catch(d.safetyEmphasis),
  feedbackFrequency: z.string().catch(d.feedbackFrequency),
  visualAssistance: options,
  audioAssistance: options,
  motorAssistance: options,
  colorScheme: z.string().catch(d.colorScheme),
  fontSize: z.string().catch(d.fontSize),
  uiComplexity: z.string().catch(d.uiComplexity),
}

export const profileSchema = z.object(profileFields).catch(() => ({ ...defaultProfile }))

/** Reads a profile: a missing or malformed field takes the wizard's default; anything that is not an object reads as the defaults. */
export function parsePersonalizationProfile(raw: unknown): PersonalizationProfile {
  return profileSchema.parse(raw)
}

const notApplied = { reducedMotion: false, captions: false, extendedTimeouts: false }

/** The app-wide behaviours the profile switches on, as the server derives them. */
export const appliedSchema = z
  .object({
    /** motionSensitivity high. */
    reducedMotion: z.boolean().catch(false),
    /** audioAssistance has visual-captions. */
    captions: z.boolean().catch(false),
    /** motorAssistance has extended-timeouts. */
    extendedTimeouts: z.boolean().catch(false),
  })
  .catch(() => ({ ...notApplied }))

/** GET /api/personalization: the profile, whether it was ever saved, when, and what it switches on. */
export const personalizationSchema = z
  .object({
    ...profileFields,
    /** false: these are the wizard's defaults, nothing saved yet. */
    saved: z.boolean().catch(false),
    updatedAt: z.string().nullable().catch(null),
    applied: appliedSchema,
  })
  .catch(() => ({ ...defaultProfile, saved: false, updatedAt: null, applied: { ...notApplied } }))
export type Personalization = z.infer<typeof personalizationSchema>

/** The profile alone, without what only the server writes: a select for the wizard. */
export function profileOf({ saved: _saved, updatedAt: _updatedAt, applied: _applied, ...profile }: Personalization): PersonalizationProfile {
  return profile
}

/** The message a failed save logs (spec 001 §8); it is never shown to the learner. */
export const SAVE_FAILED_MESSAGE = 'Failed to save personalization settings'

export const personalizationKeys = {
  profile: ['/api/personalization'] as const,
}

export const personalizationQueryOptions = () =>
  queryOptions({ queryKey: personalizationKeys.profile, queryFn: () => load('/api/personalization', personalizationSchema) })

export function usePersonalization<R = Personalization>(options?: ReadOptions<Personalization, R>) {
  return useRead(personalizationQueryOptions(), options)
}

/**
 * POST /api/personalization/save with the full wizard profile. The answer is
 * the new GET answer, so the app-wide appearance (which reads the same
 * query) follows at once, without a reload. A failure is only logged.
 */
export function useSavePersonalization() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (profile: PersonalizationProfile) => {
      try {
        const res = await apiRequest('POST', '/api/personalization/save', profile)
        return personalizationSchema.parse(await res.json())
      } catch (error) {
        throw new Error(`${SAVE_FAILED_MESSAGE}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
      }
    },
    onSuccess: (saved) => queryClient.setQueryData(personalizationKeys.profile, saved),
    onError: (error) => console.error(SAVE_FAILED_MESSAGE, error),
  })
}
