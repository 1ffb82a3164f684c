import { useCallback, useMemo } from 'react'
import { useLocation, useSearch } from 'wouter'

/**
 * A page's state kept in its address's query string, so a reload, a shared
 * link and Back all show the same view. read turns the query string into
 * the state (defaults for anything missing or wrong), write turns it back.
 * A change adds a history entry unless replace is asked for.
 */
export function useUrlState<T>(read: (search: string) => T, write: (state: T) => string): [T, (next: T, options?: { replace?: boolean }) => void] {
  const [location, navigate] = useLocation()
  const search = useSearch()
  const state = useMemo(() => read(search), [read, search])
  const set = useCallback(
    (next: T, options?: { replace?: boolean }) => {
      const query = write(next)
      // The same view again would only add a history entry Back has to step over.
      if (query === search) return
      navigate(query ? `${location}?${query}` : location, { replace: options?.replace ?? false })
    },
    [location, navigate, search, write],
  )
  return [state, set]
}
