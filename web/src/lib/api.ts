import { QueryClient, type QueryFunction } from '@tanstack/react-query'

/**
 * A non-ok answer. Its message is "{status}: {body text or status text}"
 * (spec 000 §8); the status, the server's {"message"} and Retry-After are
 * kept as fields so a form can place an error or count down a throttle
 * without parsing the text again.
 */
export class ApiError extends Error {
  readonly status: number
  /** The raw body text ('' when empty). */
  readonly body: string
  /** The server's {"message": "..."} or, for a body that is not that JSON, the text itself. */
  readonly serverMessage: string
  /** Seconds from a Retry-After header (429, 503), else null. */
  readonly retryAfterSeconds: number | null

  constructor(status: number, body: string, statusText: string, retryAfter: string | null) {
    super(`${status}: ${body || statusText}`)
    this.name = 'ApiError'
    this.status = status
    this.body = body
    this.serverMessage = messageOf(body) || statusText
    const seconds = retryAfter === null ? NaN : Number(retryAfter.trim())
    this.retryAfterSeconds = Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : null
  }
}

function messageOf(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body)
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') return parsed.message
  } catch {
    // Not JSON (a proxy's page, say): the text is the message.
  }
  return body.trim()
}

/** Turns any non-ok answer into an ApiError. */
async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return
  throw new ApiError(res.status, await res.text(), res.statusText, res.headers.get('Retry-After'))
}

/**
 * The generic request helper (spec 000 §7): always sends credentials; a JSON
 * body and its content type only when data is given. Rejects on any non-ok
 * answer and resolves to the Response otherwise. keepalive lets the request
 * outlive the page (at most 64 KB of body).
 */
export async function apiRequest(method: string, url: string, data?: unknown, options: { keepalive?: boolean } = {}): Promise<Response> {
  const init: RequestInit = { method, credentials: 'include', ...options }
  if (data !== undefined) {
    init.headers = { 'Content-Type': 'application/json' }
    init.body = JSON.stringify(data)
  }
  const res = await fetch(url, init)
  await throwIfNotOk(res)
  return res
}

/** apiRequest with a body that is not JSON (a CSV upload, a zip file), sent as it is with its content type. */
export async function apiRequestText(method: string, url: string, body: BodyInit, contentType: string): Promise<Response> {
  const res = await fetch(url, { method, credentials: 'include', headers: { 'Content-Type': contentType }, body })
  await throwIfNotOk(res)
  return res
}

/** What a query does with a 401 answer: raise an error or resolve to null. */
export type UnauthorizedBehavior = 'returnNull' | 'throw'

/**
 * Data loading (spec 000 §7): a GET of path with credentials, its JSON body
 * returned; a 401 raises an error unless on401 is 'returnNull'. The modules
 * of src/api load every answer through this and parse it with their schema.
 */
export async function loadJSON(path: string, on401: UnauthorizedBehavior = 'throw'): Promise<unknown> {
  const res = await fetch(path, { credentials: 'include' })
  if (on401 === 'returnNull' && res.status === 401) return null
  await throwIfNotOk(res)
  return (await res.json()) as unknown
}

/**
 * The data-loading function (spec 000 §7): a GET of the query key's segments
 * joined with '/', credentials always sent, JSON body returned.
 */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey }) => (await loadJSON(queryKey.join('/'), options.on401)) as T | null
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
