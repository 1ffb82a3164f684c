import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import { ApiError, apiRequest, createQueryClient, getQueryFn } from '@/lib/api'

type FetchMock = ReturnType<typeof vi.fn<typeof fetch>>

function respond(status: number, body: string, statusText = ''): Response {
  return new Response(body === '' ? null : body, { status, statusText })
}

let fetchMock: FetchMock

beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>()
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => {
  vi.unstubAllGlobals()
})

function queryContext(queryKey: readonly unknown[]) {
  return { queryKey, signal: new AbortController().signal, meta: undefined, client: new QueryClient() } as never
}

describe('apiRequest', () => {
  it('sends credentials and no body or headers without data', async () => {
    fetchMock.mockResolvedValue(respond(200, '{}'))
    await apiRequest('DELETE', '/api/things/1')
    expect(fetchMock).toHaveBeenCalledTimes(1)
    const [url, init] = fetchMock.mock.calls[0]
    expect(url).toBe('/api/things/1')
    expect(init).toEqual({ method: 'DELETE', credentials: 'include' })
  })

  it('sends JSON and its content type when data is given', async () => {
    fetchMock.mockResolvedValue(respond(201, '{"id":1}'))
    const res = await apiRequest('POST', '/api/demo-requests', { name: 'Ada' })
    const [, init] = fetchMock.mock.calls[0]
    expect(init?.method).toBe('POST')
    expect(init?.credentials).toBe('include')
    expect(init?.headers).toEqual({ 'Content-Type': 'application/json' })
    expect(init?.body).toBe('{"name":"Ada"}')
    expect(await res.json()).toEqual({ id: 1 })
  })

  it('raises "{status}: {body}" on a non-ok answer', async () => {
    fetchMock.mockResolvedValue(respond(400, '{"message":"email: must be an address"}', 'Bad Request'))
    await expect(apiRequest('POST', '/api/x', {})).rejects.toThrow('400: {"message":"email: must be an address"}')
  })

  it('uses the status text when the body is empty', async () => {
    fetchMock.mockResolvedValue(respond(503, '', 'Service Unavailable'))
    await expect(apiRequest('GET', '/api/x')).rejects.toThrow('503: Service Unavailable')
  })

  it('keeps the status, the server\'s message and Retry-After on the error', async () => {
    fetchMock.mockResolvedValue(
      new Response('{"message":"too many sign-in attempts; try again in 42 seconds"}', { status: 429, headers: { 'Retry-After': '42' } }),
    )
    const error = await apiRequest('POST', '/api/account/sign-in', {}).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 429, serverMessage: 'too many sign-in attempts; try again in 42 seconds', retryAfterSeconds: 42 })
  })
})

describe('getQueryFn', () => {
  it('GETs the query key joined with "/" with credentials and returns the JSON', async () => {
    fetchMock.mockResolvedValue(respond(200, '[{"id":"m1"}]'))
    const fn = getQueryFn<unknown>({ on401: 'throw' })
    const data = await fn(queryContext(['/api/users', 'u1', 'progress']))
    expect(fetchMock).toHaveBeenCalledWith('/api/users/u1/progress', { credentials: 'include' })
    expect(data).toEqual([{ id: 'm1' }])
  })

  it('returns null on 401 when asked to', async () => {
    fetchMock.mockResolvedValue(respond(401, 'not signed in', 'Unauthorized'))
    const fn = getQueryFn<unknown>({ on401: 'returnNull' })
    await expect(fn(queryContext(['/api/me']))).resolves.toBeNull()
  })

  it('raises on 401 otherwise', async () => {
    fetchMock.mockResolvedValue(respond(401, 'not signed in', 'Unauthorized'))
    const fn = getQueryFn<unknown>({ on401: 'throw' })
    await expect(fn(queryContext(['/api/me']))).rejects.toThrow('401: not signed in')
  })

  it('raises "{status}: {status text}" on other errors even in returnNull mode', async () => {
    fetchMock.mockResolvedValue(respond(500, '', 'Internal Server Error'))
    const fn = getQueryFn<unknown>({ on401: 'returnNull' })
    await expect(fn(queryContext(['/api/x']))).rejects.toThrow('500: Internal Server Error')
  })
})

describe('queryClient defaults', () => {
  it('has no retries, no refetch on focus or interval, and data that never goes stale', () => {
    const client = createQueryClient()
    const { queries, mutations } = client.getDefaultOptions()
    expect(queries?.retry).toBe(false)
    expect(queries?.refetchOnWindowFocus).toBe(false)
    expect(queries?.refetchInterval).toBe(false)
    expect(queries?.staleTime).toBe(Infinity)
    expect(mutations?.retry).toBe(false)
  })

  it('does not retry a failing query', async () => {
    fetchMock.mockResolvedValue(respond(500, 'boom', 'Internal Server Error'))
    const client = createQueryClient()
    await expect(client.fetchQuery({ queryKey: ['/api/flaky'] })).rejects.toThrow('500: boom')
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('serves a fetched query from cache instead of fetching it again', async () => {
    fetchMock.mockResolvedValue(respond(200, '{"n":1}'))
    const client = createQueryClient()
    await client.fetchQuery({ queryKey: ['/api/stats'] })
    fetchMock.mockResolvedValue(respond(200, '{"n":2}'))
    const again = await client.fetchQuery({ queryKey: ['/api/stats'] })
    expect(again).toEqual({ n: 1 })
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })
})
