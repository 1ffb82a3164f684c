import { vi } from 'vitest'

/** One canned answer: a status, a JSON body (or none) and headers. */
export interface FakeAnswer {
  status?: number
  body?: unknown
  headers?: Record<string, string>
}

type Handler = FakeAnswer | ((request: { url: URL; method: string; body: string | null }) => FakeAnswer)

/**
 * Replaces fetch with a table of "METHOD /path" → answer (the path without
 * its query). Unknown requests answer 404, so a test sees what it forgot.
 * Returns the mock, whose calls tell what the app sent.
 */
export function fakeApi(routes: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://app.test')
    const method = (init?.method ?? 'GET').toUpperCase()
    const handler = routes[`${method} ${url.pathname}`]
    const answer: FakeAnswer = !handler
      ? { status: 404, body: { message: `no fake for ${method} ${url.pathname}` } }
      : typeof handler === 'function'
        ? handler({ url, method, body: typeof init?.body === 'string' ? init.body : null })
        : handler
    const status = answer.status ?? 200
    const body = answer.body === undefined || status === 204 ? null : JSON.stringify(answer.body)
    return new Response(body, { status, headers: { 'Content-Type': 'application/json', ...answer.headers } })
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

export const guestMe = { id: 'g'.repeat(32), displayName: 'Guest gggg', guest: true, email: null, role: 'guest', organisation: null }
export const adminMe = {
  id: 'a1',
  displayName: 'Ada Lovelace',
  guest: false,
  email: 'ada@example.com',
  role: 'admin',
  organisation: { id: 'o1', name: 'Northside Training Centre' },
}
export const learnerMe = { id: 'l1', displayName: 'Lee Learner', guest: false, email: 'lee@example.com', role: 'learner', organisation: null }
