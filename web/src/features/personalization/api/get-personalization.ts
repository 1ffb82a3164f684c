import { queryOptions, useQuery } from '@tanstack/react-query'
import { fetchPersonalizationProfile, personalizationQueryKey } from '@/lib/appearance'

/** The saved profile (null when none is saved), shared with the app-wide appearance. */
export const personalizationQueryOptions = queryOptions({
  queryKey: personalizationQueryKey,
  queryFn: fetchPersonalizationProfile,
})

/** GET /api/personalization. */
export function usePersonalization() {
  return useQuery(personalizationQueryOptions)
}
