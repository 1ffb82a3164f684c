import { z } from 'zod'
import type { PersonalizationProfile } from '@/api/personalization'

/** The wizard has seven steps (spec 001 §9). */
export const WIZARD_STEPS = 7

/** One choice of a single- or multi-choice field. */
export interface Option<T extends string | number = string> {
  value: T
  label: string
  hint?: string
}

export const experienceLevels: Option[] = [
  { value: 'beginner', label: 'Beginner', hint: 'New to the trade' },
  { value: 'intermediate', label: 'Intermediate', hint: 'Some supervised work done' },
  { value: 'advanced', label: 'Advanced', hint: 'Working independently' },
  { value: 'expert', label: 'Expert', hint: 'Leading and teaching others' },
]

export const primaryTrades: Option[] = [
  { value: 'electrical', label: 'Electrical' },
  { value: 'plumbing', label: 'Plumbing' },
  { value: 'hvac', label: 'HVAC' },
  { value: 'welding', label: 'Welding' },
  { value: 'carpentry', label: 'Carpentry' },
  { value: 'automotive', label: 'Automotive' },
]

export const learningStyles: Option[] = [
  { value: 'visual', label: 'Visual', hint: 'Diagrams, 3D views and demonstrations' },
  { value: 'auditory', label: 'Auditory', hint: 'Narration and spoken instructions' },
  { value: 'kinesthetic', label: 'Kinesthetic', hint: 'Hands-on practice first' },
  { value: 'mixed', label: 'Mixed', hint: 'A blend of all three' },
]

/** Session lengths offered: 15, 30, 45, 60+ minutes (spec 001 §9). */
export const sessionLengths: Option<number>[] = [
  { value: 15, label: '15 minutes' },
  { value: 30, label: '30 minutes' },
  { value: 45, label: '45 minutes' },
  { value: 60, label: '60+ minutes' },
]

export const motionSensitivities: Option[] = [
  { value: 'low', label: 'Low', hint: 'Smooth movement and full animations are fine' },
  { value: 'medium', label: 'Medium', hint: 'Some movement is fine; prefer teleporting' },
  { value: 'high', label: 'High', hint: 'Motion makes me uncomfortable: reduce animations everywhere' },
]

export const difficultyProgressions: Option[] = [
  { value: 'gradual', label: 'Gradual', hint: 'Small steps, plenty of practice' },
  { value: 'moderate', label: 'Moderate', hint: 'A steady climb' },
  { value: 'aggressive', label: 'Aggressive', hint: 'Move on as soon as I pass' },
]

export const feedbackFrequencies: Option[] = [
  { value: 'minimal', label: 'Minimal', hint: 'Only when something is unsafe' },
  { value: 'moderate', label: 'Moderate', hint: 'After each step' },
  { value: 'frequent', label: 'Frequent', hint: 'Continuous coaching' },
]

export const visualAssistanceOptions: Option[] = [
  { value: 'text-to-speech', label: 'Text-to-speech' },
  { value: 'high-contrast', label: 'High contrast' },
  { value: 'large-ui', label: 'Large UI' },
  { value: 'color-indicators', label: 'Colour indicators' },
  { value: 'magnification', label: 'Magnification' },
]

export const audioAssistanceOptions: Option[] = [
  { value: 'visual-captions', label: 'Visual captions' },
  { value: 'sign-language', label: 'Sign language' },
  { value: 'haptic-feedback', label: 'Haptic feedback' },
  { value: 'volume-control', label: 'Volume control' },
]

export const motorAssistanceOptions: Option[] = [
  { value: 'simplified-controls', label: 'Simplified controls' },
  { value: 'gesture-alternatives', label: 'Gesture alternatives' },
  { value: 'reduced-precision', label: 'Reduced precision' },
  { value: 'extended-timeouts', label: 'Extended timeouts' },
]

export const colorSchemeOptions: Option[] = [
  { value: 'default', label: 'Default' },
  { value: 'high-contrast', label: 'High contrast' },
  { value: 'dark', label: 'Dark' },
  { value: 'colorblind-friendly', label: 'Colour-blind friendly' },
]

export const fontSizeOptions: Option[] = [
  { value: 'small', label: 'Small' },
  { value: 'medium', label: 'Medium' },
  { value: 'large', label: 'Large' },
]

export const uiComplexityOptions: Option[] = [
  { value: 'simple', label: 'Simple', hint: 'Only the essentials on each screen' },
  { value: 'standard', label: 'Standard', hint: 'The usual amount of detail' },
  { value: 'advanced', label: 'Advanced', hint: 'Extra technical detail' },
]

/** The wizard's defaults live with the profile type, which the whole app reads. */
export { defaultProfile } from '@/api/personalization'

/** The titles of the seven steps, in order. */
export const stepTitles = [
  'Experience and trade',
  'How you learn',
  'XR comfort',
  'Training pace and feedback',
  'Visual assistance',
  'Audio and motor assistance',
  'Display',
] as const

/** The fields each step shows, in order; Next checks these before moving on. */
export const stepFields: readonly (readonly (keyof PersonalizationProfile)[])[] = [
  ['experienceLevel', 'primaryTrade'],
  ['learningStyle', 'preferredSessionLength'],
  ['xrComfortLevel', 'motionSensitivity'],
  ['difficultyProgression', 'safetyEmphasis', 'feedbackFrequency'],
  ['visualAssistance'],
  ['audioAssistance', 'motorAssistance'],
  ['colorScheme', 'fontSize', 'uiComplexity'],
]

const offered =
  <T extends string | number>(options: readonly Option<T>[]) =>
  (value: T) =>
    options.some((o) => o.value === value)

/*
 * The wizard's profile. Every control offers only allowed values, but a
 * saved profile may hold one this wizard does not offer (one a newer server
 * knows, say), which leaves its group with nothing chosen; the server would
 * refuse it, so the learner is asked to choose. The sliders and check boxes
 * cannot hold a bad value, so they pass as they are.
 */
export const profileFormSchema = z.object({
  experienceLevel: z.string().refine(offered(experienceLevels), 'Choose your experience level.'),
  // No trade chosen is fine.
  primaryTrade: z.string().refine((v) => v === '' || offered(primaryTrades)(v), 'Choose your primary trade.'),
  learningStyle: z.string().refine(offered(learningStyles), 'Choose a learning style.'),
  preferredSessionLength: z.number().refine(offered(sessionLengths), 'Choose a session length.'),
  xrComfortLevel: z.number(),
  motionSensitivity: z.string().refine(offered(motionSensitivities), 'Choose your motion sensitivity.'),
  difficultyProgression: z.string().refine(offered(difficultyProgressions), 'Choose a difficulty progression.'),
  safetyEmphasis: z.number(),
  feedbackFrequency: z.string().refine(offered(feedbackFrequencies), 'Choose a feedback frequency.'),
  visualAssistance: z.array(z.string()),
  audioAssistance: z.array(z.string()),
  motorAssistance: z.array(z.string()),
  colorScheme: z.string().refine(offered(colorSchemeOptions), 'Choose a colour scheme.'),
  fontSize: z.string().refine(offered(fontSizeOptions), 'Choose a font size.'),
  uiComplexity: z.string().refine(offered(uiComplexityOptions), 'Choose an interface complexity.'),
}) satisfies z.ZodType<PersonalizationProfile>

/** Toggles value in a multi-choice list, keeping the options' order stable. */
export function toggleOption(list: readonly string[], value: string, on: boolean, order: readonly Option[]): string[] {
  const next = new Set(list)
  if (on) next.add(value)
  else next.delete(value)
  return order.map((o) => o.value).filter((v) => next.has(v))
}

/** The step after a Next (or Previous) press, kept within 1..WIZARD_STEPS. */
export function clampStep(step: number): number {
  return Math.min(WIZARD_STEPS, Math.max(1, step))
}
