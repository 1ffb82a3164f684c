import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ReactNode } from 'react'
import { renderHook, waitFor } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import { ApiError, createQueryClient } from '@/lib/api'
import { fakeApi } from '@/test/fake-api'
import { unconfiguredForwarding as unconfigured } from '@/test/xapi-answers'
import {
  createdXAPICredentialSchema,
  forwardingFailing,
  useCreateXAPICredential,
  useDeleteXAPIForwarding,
  usePauseXAPIForwarding,
  useSetXAPIForwarding,
  useXAPIForwarding,
  xapiForwardingSchema,
  useRevokeXAPICredential,
  useXAPICredentials,
  xapiCredentialsSchema,
  xapiKeys,
  xapiScopes,
} from './xapi'

afterEach(() => vi.unstubAllGlobals())

const credential = {
  id: 'c1',
  name: 'Course player',
  key: 'k'.repeat(20),
  canRead: true,
  canWrite: false,
  createdAt: '2026-11-24T10:00:00Z',
  revokedAt: null,
}
const list = { endpoint: 'https://lrs.example/xapi/', credentials: [credential, { ...credential, id: 'c0', revokedAt: '2026-11-24T11:00:00Z' }] }

function wrapper() {
  const client = createQueryClient()
  return { client, wrapper: ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider> }
}

describe('schemas', () => {
  it('reads the list with its endpoint, live and revoked credentials', () => {
    expect(xapiCredentialsSchema.parse(list)).toEqual(list)
  })

  it('refuses a credential without its scopes or revocation', () => {
    const { canWrite: _w, ...noWrite } = credential
    expect(xapiCredentialsSchema.safeParse({ ...list, credentials: [noWrite] }).success).toBe(false)
    const { revokedAt: _r, ...noRevoked } = credential
    expect(xapiCredentialsSchema.safeParse({ ...list, credentials: [noRevoked] }).success).toBe(false)
    expect(xapiCredentialsSchema.safeParse({ credentials: [] }).success).toBe(false)
  })

  it('reads a created credential only with its secret', () => {
    expect(createdXAPICredentialSchema.parse({ credential, secret: 's3cret' }).secret).toBe('s3cret')
    expect(createdXAPICredentialSchema.safeParse({ credential }).success).toBe(false)
  })
})

describe('xapiScopes', () => {
  it.each([
    [true, true, 'Read and write'],
    [true, false, 'Read only'],
    [false, true, 'Write only'],
  ])('canRead %s, canWrite %s → %s', (canRead, canWrite, want) => {
    expect(xapiScopes({ canRead, canWrite })).toBe(want)
  })
})

describe('hooks', () => {
  it('lists the credentials under their one key', async () => {
    fakeApi({ 'GET /api/organisation/xapi/credentials': { body: list } })
    const { client, wrapper: w } = wrapper()
    const { result } = renderHook(() => useXAPICredentials(), { wrapper: w })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    expect(result.current.data).toEqual(list)
    expect(client.getQueryData(xapiKeys.credentials)).toEqual(list)
  })

  it('creates with name and scopes as JSON, answers the secret and refetches the list', async () => {
    const fetchMock = fakeApi({
      'POST /api/organisation/xapi/credentials': { status: 201, body: { credential, secret: 's3cret' } },
      'GET /api/organisation/xapi/credentials': { body: list },
    })
    const { client, wrapper: w } = wrapper()
    client.setQueryData(xapiKeys.credentials, { endpoint: 'x', credentials: [] })
    const { result } = renderHook(() => useCreateXAPICredential(), { wrapper: w })
    await expect(result.current.mutateAsync({ name: 'Course player', canRead: true, canWrite: false })).resolves.toEqual({ credential, secret: 's3cret' })
    const [url, init] = fetchMock.mock.calls[0]
    expect(url).toBe('/api/organisation/xapi/credentials')
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' } })
    expect(JSON.parse(String(init?.body))).toEqual({ name: 'Course player', canRead: true, canWrite: false })
    expect(client.getQueryState(xapiKeys.credentials)?.isInvalidated).toBe(true)
  })

  it("fails with the server's message on a refused create", async () => {
    fakeApi({ 'POST /api/organisation/xapi/credentials': { status: 400, body: { message: 'name must be 1 to 80 characters' } } })
    const { wrapper: w } = wrapper()
    const { result } = renderHook(() => useCreateXAPICredential(), { wrapper: w })
    const failure = result.current.mutateAsync({ name: '', canRead: true, canWrite: true })
    await expect(failure).rejects.toBeInstanceOf(ApiError)
    await expect(failure).rejects.toMatchObject({ status: 400, serverMessage: 'name must be 1 to 80 characters' })
  })

  it('revokes by the escaped id with DELETE and refetches the list', async () => {
    const fetchMock = fakeApi({
      'DELETE /api/organisation/xapi/credentials/a%2Fb': { status: 204 },
      'GET /api/organisation/xapi/credentials': { body: list },
    })
    const { client, wrapper: w } = wrapper()
    client.setQueryData(xapiKeys.credentials, list)
    const { result } = renderHook(() => useRevokeXAPICredential(), { wrapper: w })
    await result.current.mutateAsync('a/b')
    expect(fetchMock.mock.calls[0][0]).toBe('/api/organisation/xapi/credentials/a%2Fb')
    expect(fetchMock.mock.calls[0][1]).toMatchObject({ method: 'DELETE' })
    expect(client.getQueryState(xapiKeys.credentials)?.isInvalidated).toBe(true)
  })
})

const forwarding = {
  ...unconfigured,
  configured: true,
  endpoint: 'https://lrs.example.org/xapi/',
  key: 'k',
  version: '1.0.3',
  queueLength: 12,
  forwardedThrough: '2026-11-24T10:00:00Z',
  lastError: 'the external LRS answered 503 Service Unavailable',
  lastErrorAt: '2026-11-24T10:05:00Z',
  lastSuccessAt: '2026-11-24T10:01:00Z',
  nextAttemptAt: '2026-11-24T10:05:08Z',
}

describe('forwarding', () => {
  it('reads the status, configured or not', () => {
    expect(xapiForwardingSchema.parse(forwarding)).toEqual(forwarding)
    expect(xapiForwardingSchema.parse(unconfigured)).toEqual(unconfigured)
  })

  it('refuses a status without its queue length or with an unknown version', () => {
    const { queueLength: _q, ...noQueue } = forwarding
    expect(xapiForwardingSchema.safeParse(noQueue).success).toBe(false)
    expect(xapiForwardingSchema.safeParse({ ...forwarding, version: '1.0.0' }).success).toBe(false)
  })

  it.each([
    ['NeverFailed', { lastError: '', lastErrorAt: null, lastSuccessAt: null }, false],
    ['FailedNeverSucceeded', { lastError: 'x', lastErrorAt: '2026-11-24T10:00:00Z', lastSuccessAt: null }, true],
    ['FailedAfterSuccess', { lastError: 'x', lastErrorAt: '2026-11-24T10:05:00Z', lastSuccessAt: '2026-11-24T10:01:00Z' }, true],
    ['SucceededSince', { lastError: 'x', lastErrorAt: '2026-11-24T10:00:00Z', lastSuccessAt: '2026-11-24T10:01:00Z' }, false],
  ])('forwardingFailing %s', (_, f, want) => {
    expect(forwardingFailing(f)).toBe(want)
  })

  it('reads the status under its one key', async () => {
    fakeApi({ 'GET /api/organisation/xapi/forwarding': { body: forwarding } })
    const { client, wrapper: w } = wrapper()
    const { result } = renderHook(() => useXAPIForwarding(), { wrapper: w })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    expect(client.getQueryData(xapiKeys.forwarding)).toEqual(forwarding)
  })

  it('saves with PUT as JSON and keeps the answer as the status', async () => {
    const fetchMock = fakeApi({ 'PUT /api/organisation/xapi/forwarding': { body: forwarding } })
    const { client, wrapper: w } = wrapper()
    const { result } = renderHook(() => useSetXAPIForwarding(), { wrapper: w })
    const input = { endpoint: 'https://lrs.example.org/xapi/', key: 'k', secret: 's', version: '1.0.3' as const }
    await result.current.mutateAsync(input)
    expect(fetchMock.mock.calls[0][1]).toMatchObject({ method: 'PUT' })
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual(input)
    expect(client.getQueryData(xapiKeys.forwarding)).toEqual(forwarding)
  })

  it('pauses and resumes through their own paths', async () => {
    const fetchMock = fakeApi({
      'POST /api/organisation/xapi/forwarding/pause': { body: { ...forwarding, paused: true } },
      'POST /api/organisation/xapi/forwarding/resume': { body: forwarding },
    })
    const { client, wrapper: w } = wrapper()
    const { result } = renderHook(() => usePauseXAPIForwarding(), { wrapper: w })
    await result.current.mutateAsync(true)
    expect(client.getQueryData<{ paused: boolean }>(xapiKeys.forwarding)?.paused).toBe(true)
    await result.current.mutateAsync(false)
    expect(client.getQueryData<{ paused: boolean }>(xapiKeys.forwarding)?.paused).toBe(false)
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/organisation/xapi/forwarding/pause', '/api/organisation/xapi/forwarding/resume'])
  })

  it('stops with DELETE and refetches the status', async () => {
    const fetchMock = fakeApi({
      'DELETE /api/organisation/xapi/forwarding': { status: 204 },
      'GET /api/organisation/xapi/forwarding': { body: unconfigured },
    })
    const { client, wrapper: w } = wrapper()
    client.setQueryData(xapiKeys.forwarding, forwarding)
    const { result } = renderHook(() => useDeleteXAPIForwarding(), { wrapper: w })
    await result.current.mutateAsync()
    expect(fetchMock.mock.calls[0][1]).toMatchObject({ method: 'DELETE' })
    expect(client.getQueryState(xapiKeys.forwarding)?.isInvalidated).toBe(true)
  })
})
