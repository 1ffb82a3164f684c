import { useMutation, useQueryClient } from '@tanstack/react-query'
import { parsePersonalizationProfile, personalizationQueryKey, type PersonalizationProfile } from '@/lib/appearance'

/** The message a failed save logs (spec 001 §8); it is never shown to the learner. */
export const SAVE_FAILED_MESSAGE = 'Failed to save personalization settings'

/** POST /api/personalization/save with the full wizard profile; throws when the answer is not ok. */
export async function savePersonalization(profile: PersonalizationProfile): Promise<PersonalizationProfile> {
  const res = await fetch('/api/personalization/save', {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(profile),
  })
  if (!res.ok) throw new Error(`${SAVE_FAILED_MESSAGE}: ${res.status} ${(await res.text()) || res.statusText}`)
  const body: unknown = await res.json().catch(() => null)
  const raw = body && typeof body === 'object' && 'profile' in body ? body.profile : body
  return raw && typeof raw === 'object' ? parsePersonalizationProfile(raw) : profile
}

/**
 * Saves the profile and hands it to the app-wide appearance at once (the
 * AppearanceProvider reads the same query), so the new scheme shows without a
 * reload. A failure is only logged.
 */
export function useSavePersonalization() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: savePersonalization,
    onSuccess: (saved) => queryClient.setQueryData(personalizationQueryKey, saved),
    onError: (error) => console.error(SAVE_FAILED_MESSAGE, error),
  })
}
