import { queryOptions, useQuery } from '@tanstack/react-query'
import { fetchPersonalizationProfile, personalizationQueryKey } from '@/lib/appearance'

/** The learner's saved profile, for their primary trade (shared with the app-wide appearance). */
export const personalizationQuery = queryOptions({ queryKey: personalizationQueryKey, queryFn: fetchPersonalizationProfile })

export function usePersonalization() {
  return useQuery(personalizationQuery)
}
