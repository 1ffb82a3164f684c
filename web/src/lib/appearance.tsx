import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { personalizationQueryOptions, type PersonalizationProfile } from '@/api/personalization'

/** Text sizes the app can be shown in; each maps to a class on <html>. */
export const fontSizes = ['small', 'medium', 'large', 'x-large'] as const
/** One of fontSizes. */
export type FontSize = (typeof fontSizes)[number]

/** Colour schemes of the personalization profile (spec 001 §3); each is a palette in index.css. */
export const colorSchemes = ['default', 'high-contrast', 'dark', 'colorblind-friendly'] as const
/** One of colorSchemes. */
export type ColorScheme = (typeof colorSchemes)[number]

/** How much detail screens show (spec 001 §3 uiComplexity). */
export const uiComplexities = ['simple', 'standard', 'advanced'] as const
/** One of uiComplexities. */
export type UiComplexity = (typeof uiComplexities)[number]

/** Timed things (toasts, auto-advancing steps) last this many times longer with the extended-timeouts assistance. */
export const EXTENDED_TIMEOUT_MULTIPLIER = 3

/**
 * How the whole app is shown, derived from the learner's saved
 * personalization profile. colorScheme, fontSize, uiComplexity and
 * reducedMotion are written to <html> (data attributes and a class), so the
 * stylesheet applies them everywhere, portals included; captions,
 * textToSpeech and timeoutMultiplier are flags components read through
 * useAppearance().
 */
export interface Appearance {
  colorScheme: ColorScheme
  fontSize: FontSize
  uiComplexity: UiComplexity
  /** Cut animations and transitions: the learner reported high motion sensitivity. */
  reducedMotion: boolean
  /** Show a caption for everything the app speaks (audio assistance 'visual-captions'). */
  captions: boolean
  /** Read instructions aloud (visual assistance 'text-to-speech'). */
  textToSpeech: boolean
  /** Multiply every timeout by this (motor assistance 'extended-timeouts'). */
  timeoutMultiplier: number
}

/** The appearance before a learner chooses one. */
export const defaultAppearance: Appearance = {
  colorScheme: 'default',
  fontSize: 'medium',
  uiComplexity: 'standard',
  reducedMotion: false,
  captions: false,
  textToSpeech: false,
  timeoutMultiplier: 1,
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T): T {
  return (allowed as readonly string[]).includes(value ?? '') ? (value as T) : fallback
}

/**
 * Maps a saved profile to the app's appearance. The assistance options
 * strengthen the explicit choices but never weaken them: 'high-contrast'
 * visual assistance turns a default colour scheme into high contrast, and
 * 'large-ui' makes small or medium text large.
 */
export function appearanceFromProfile(profile: Partial<PersonalizationProfile>): Appearance {
  const visual = profile.visualAssistance ?? []
  const audio = profile.audioAssistance ?? []
  const motor = profile.motorAssistance ?? []
  let colorScheme = oneOf(profile.colorScheme, colorSchemes, 'default')
  if (colorScheme === 'default' && visual.includes('high-contrast')) colorScheme = 'high-contrast'
  let fontSize = oneOf(profile.fontSize, fontSizes, 'medium')
  if (visual.includes('large-ui') && (fontSize === 'small' || fontSize === 'medium')) fontSize = 'large'
  return {
    colorScheme,
    fontSize,
    uiComplexity: oneOf(profile.uiComplexity, uiComplexities, 'standard'),
    reducedMotion: profile.motionSensitivity === 'high',
    captions: audio.includes('visual-captions'),
    textToSpeech: visual.includes('text-to-speech'),
    timeoutMultiplier: motor.includes('extended-timeouts') ? EXTENDED_TIMEOUT_MULTIPLIER : 1,
  }
}

// The last applied appearance is remembered in the browser, so a reload shows
// the learner's scheme from the first paint instead of flashing the default
// until the profile arrives. The server's profile stays the source of truth.
const storageKey = 'journeyman-xr:appearance'

function readCachedAppearance(): Appearance | null {
  try {
    const raw = window.localStorage.getItem(storageKey)
    if (!raw) return null
    const parsed = JSON.parse(raw) as Partial<Appearance>
    return {
      colorScheme: oneOf(parsed.colorScheme, colorSchemes, 'default'),
      fontSize: oneOf(parsed.fontSize, fontSizes, 'medium'),
      uiComplexity: oneOf(parsed.uiComplexity, uiComplexities, 'standard'),
      reducedMotion: parsed.reducedMotion === true,
      captions: parsed.captions === true,
      textToSpeech: parsed.textToSpeech === true,
      timeoutMultiplier: parsed.timeoutMultiplier === EXTENDED_TIMEOUT_MULTIPLIER ? EXTENDED_TIMEOUT_MULTIPLIER : 1,
    }
  } catch {
    return null
  }
}

function writeCachedAppearance(a: Appearance) {
  try {
    window.localStorage.setItem(storageKey, JSON.stringify(a))
  } catch {
    // Storage full or disabled: the profile still loads from the server.
  }
}

/** Writes the appearance onto the document root, where index.css keys the palettes, sizes and motion rules. */
export function applyAppearanceToRoot(root: HTMLElement, a: Appearance) {
  root.dataset.colorScheme = a.colorScheme
  root.dataset.uiComplexity = a.uiComplexity
  root.dataset.reducedMotion = String(a.reducedMotion)
  fontSizes.forEach((size) => root.classList.toggle(fontSizeClass(size), size === a.fontSize))
}

interface AppearanceContextValue {
  appearance: Appearance
  /** Overrides parts of the profile's appearance for this page view (not saved). */
  setAppearance: (next: Partial<Appearance>) => void
}

const AppearanceContext = createContext<AppearanceContextValue | null>(null)

/** The class <html> carries for a text size. */
export function fontSizeClass(size: FontSize): string {
  return `text-size-${size}`
}

/**
 * Loads the learner's saved personalization profile at startup and applies
 * it to the document root, so every page and every portal (toasts, dialogs)
 * follows it. Must sit inside the QueryClientProvider.
 */
export function AppearanceProvider({ children, initial }: { children: ReactNode; initial?: Appearance }) {
  const [cached] = useState<Appearance | null>(() => (initial ? null : readCachedAppearance()))
  const [overrides, setOverrides] = useState<Partial<Appearance>>({})
  const profile = useQuery({ ...personalizationQueryOptions(), enabled: !initial })

  const base = useMemo<Appearance>(() => {
    if (profile.data) return appearanceFromProfile(profile.data)
    return initial ?? cached ?? defaultAppearance
  }, [profile.data, initial, cached])
  const appearance = useMemo<Appearance>(() => ({ ...base, ...overrides }), [base, overrides])

  useEffect(() => {
    applyAppearanceToRoot(document.documentElement, appearance)
    if (profile.isSuccess) writeCachedAppearance(appearance)
  }, [appearance, profile.isSuccess])

  const value = useMemo<AppearanceContextValue>(
    () => ({ appearance, setAppearance: (next) => setOverrides((prev) => ({ ...prev, ...next })) }),
    [appearance],
  )
  return <AppearanceContext.Provider value={value}>{children}</AppearanceContext.Provider>
}

/** Reads and changes the app-wide appearance. */
export function useAppearance(): AppearanceContextValue {
  const value = useContext(AppearanceContext)
  if (!value) throw new Error('useAppearance must be used inside AppearanceProvider')
  return value
}

/**
 * The timeout multiplier, 1 outside an AppearanceProvider, for shared parts
 * (the toaster) that are also rendered on their own in tests.
 */
export function useTimeoutMultiplier(): number {
  return useContext(AppearanceContext)?.appearance.timeoutMultiplier ?? 1
}

/**
 * Whether spoken text (voice training, the guided tour) must also be shown
 * as a caption: the learner chose the visual-captions audio assistance.
 */
export function useCaptions(): boolean {
  return useContext(AppearanceContext)?.appearance.captions ?? false
}

/**
 * Whether to skip animation driven from script (3D camera moves, counters):
 * the learner reported high motion sensitivity or the operating system asks
 * for reduced motion. CSS animations are already cut by index.css.
 */
export function useReducedMotion(): boolean {
  const fromProfile = useContext(AppearanceContext)?.appearance.reducedMotion ?? false
  const [fromSystem, setFromSystem] = useState(() => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches)
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return
    const query = window.matchMedia('(prefers-reduced-motion: reduce)')
    const onChange = () => setFromSystem(query.matches)
    query.addEventListener('change', onChange)
    return () => query.removeEventListener('change', onChange)
  }, [])
  return fromProfile || fromSystem
}
