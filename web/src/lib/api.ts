import { QueryClient, type QueryFunction } from '@tanstack/react-query'

/**
 * Turns any non-ok answer into an Error whose message is
 * "{status}: {body text or status text}" (spec 000 §8).
 */
async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return
  const body = (await res.text()) || res.statusText
  throw new Error(`${res.status}: ${body}`)
}

/**
 * The generic request helper (spec 000 §7): always sends credentials; a JSON
 * body and its content type only when data is given. Rejects on any non-ok
 * answer and resolves to the Response otherwise.
 */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const init: RequestInit = { method, credentials: 'include' }
  if (data !== undefined) {
    init.headers = { 'Content-Type': 'application/json' }
    init.body = JSON.stringify(data)
  }
  const res = await fetch(url, init)
  await throwIfNotOk(res)
  return res
}

/** What a query does with a 401 answer: raise an error or resolve to null. */
export type UnauthorizedBehavior = 'returnNull' | 'throw'

/**
 * The data-loading function (spec 000 §7): a GET of the query key's segments
 * joined with '/', credentials always sent, JSON body returned.
 */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey }) => {
    const res = await fetch(queryKey.join('/'), { credentials: 'include' })
    if (options.on401 === 'returnNull' && res.status === 401) return null
    await throwIfNotOk(res)
    return (await res.json()) as T
  }
}

/**
 * Builds a client with the spec's data defaults: no retries, no refetch on
 * focus or on an interval (pages that poll set their own refetchInterval),
 * and data that never goes stale.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  })
}

/** The app's one query client. */
export const queryClient = createQueryClient()
