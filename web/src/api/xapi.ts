import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'

/** A key an xAPI client (a course player, an LMS) uses to reach the organisation's Learning Record Store. */
export const xapiCredentialSchema = z.object({
  id: z.string(),
  name: z.string(),
  key: z.string(),
  canRead: z.boolean(),
  canWrite: z.boolean(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
})
export type XAPICredential = z.infer<typeof xapiCredentialSchema>

/** GET /api/organisation/xapi/credentials: the LRS's address and every credential, newest first, revoked ones included. */
export const xapiCredentialsSchema = z.object({
  endpoint: z.string(),
  credentials: z.array(xapiCredentialSchema),
})
export type XAPICredentials = z.infer<typeof xapiCredentialsSchema>

/** The answer to creating a credential: the credential and its secret, shown this once. */
export const createdXAPICredentialSchema = z.object({ credential: xapiCredentialSchema, secret: z.string() })
export type CreatedXAPICredential = z.infer<typeof createdXAPICredentialSchema>

export interface CreateXAPICredentialInput {
  /** 1..80 characters */
  name: string
  canRead: boolean
  canWrite: boolean
}

export const XAPI_CREDENTIAL_NAME_MAX = 80

/** The xAPI versions an external LRS may speak. */
export const XAPI_VERSIONS = ['2.0.0', '1.0.3'] as const
export type XAPIVersion = (typeof XAPI_VERSIONS)[number]

/** Limits of the forwarding form, as the server checks them. */
export const XAPI_FORWARDING_ENDPOINT_MAX = 2000
export const XAPI_FORWARDING_KEY_MAX = 200
export const XAPI_FORWARDING_SECRET_MAX = 200

/**
 * GET /api/organisation/xapi/forwarding: where the organisation's statements are forwarded (never the secret) and
 * how far: queueLength statements wait; forwardedThrough is the stored time of the last one the external LRS took.
 * Not configured: configured false and empty strings.
 */
export const xapiForwardingSchema = z.object({
  configured: z.boolean(),
  endpoint: z.string(),
  key: z.string(),
  version: z.enum(['', ...XAPI_VERSIONS]),
  paused: z.boolean(),
  queueLength: z.number().int().nonnegative(),
  forwardedThrough: z.string().nullable(),
  lastError: z.string(),
  lastErrorAt: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
})
export type XAPIForwarding = z.infer<typeof xapiForwardingSchema>

export interface XAPIForwardingInput {
  endpoint: string
  key: string
  /** Left out to keep the stored one, allowed while the endpoint and key stay the same. */
  secret?: string
  version: XAPIVersion
}

export const xapiKeys = {
  credentials: ['/api/organisation/xapi/credentials'] as const,
  forwarding: ['/api/organisation/xapi/forwarding'] as const,
}

/** GET /api/organisation/xapi/credentials (admin). */
export const xapiCredentialsQueryOptions = () =>
  queryOptions({
    queryKey: xapiKeys.credentials,
    queryFn: async () => xapiCredentialsSchema.parse(await (await apiRequest('GET', '/api/organisation/xapi/credentials')).json()),
  })

export function useXAPICredentials(enabled = true) {
  return useQuery({ ...xapiCredentialsQueryOptions(), enabled })
}

/** POST /api/organisation/xapi/credentials (admin) → 201 the credential and its secret. */
export function useCreateXAPICredential() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: CreateXAPICredentialInput) => {
      const res = await apiRequest('POST', '/api/organisation/xapi/credentials', input)
      return createdXAPICredentialSchema.parse(await res.json())
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: xapiKeys.credentials }),
  })
}

/** DELETE /api/organisation/xapi/credentials/{id} (admin) → 204, revoked for good. */
export function useRevokeXAPICredential() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', `/api/organisation/xapi/credentials/${encodeURIComponent(id)}`)
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: xapiKeys.credentials }),
  })
}

const forwardingPath = '/api/organisation/xapi/forwarding'

/** GET /api/organisation/xapi/forwarding (admin). */
export const xapiForwardingQueryOptions = () =>
  queryOptions({
    queryKey: xapiKeys.forwarding,
    queryFn: async () => xapiForwardingSchema.parse(await (await apiRequest('GET', forwardingPath)).json()),
  })

/** The forwarding status, refreshed every few seconds while statements wait, so the queue is seen draining. */
export function useXAPIForwarding(enabled = true) {
  return useQuery({
    ...xapiForwardingQueryOptions(),
    enabled,
    refetchInterval: (query) => (query.state.data?.configured && query.state.data.queueLength > 0 ? 5000 : false),
  })
}

/** PUT /api/organisation/xapi/forwarding (admin) → the new status. */
export function useSetXAPIForwarding() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: XAPIForwardingInput) => xapiForwardingSchema.parse(await (await apiRequest('PUT', forwardingPath, input)).json()),
    onSuccess: (status) => queryClient.setQueryData(xapiKeys.forwarding, status),
  })
}

/** POST …/forwarding/pause or …/resume (admin) → the new status. */
export function usePauseXAPIForwarding() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (paused: boolean) =>
      xapiForwardingSchema.parse(await (await apiRequest('POST', `${forwardingPath}/${paused ? 'pause' : 'resume'}`)).json()),
    onSuccess: (status) => queryClient.setQueryData(xapiKeys.forwarding, status),
  })
}

/** DELETE /api/organisation/xapi/forwarding (admin) → 204: forwarding stops and its progress is forgotten. */
export function useDeleteXAPIForwarding() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async () => {
      await apiRequest('DELETE', forwardingPath)
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: xapiKeys.forwarding }),
  })
}

/** Whether the last attempt failed: an error newer than the last success. */
export function forwardingFailing(f: Pick<XAPIForwarding, 'lastError' | 'lastErrorAt' | 'lastSuccessAt'>): boolean {
  if (!f.lastError || !f.lastErrorAt) return false
  return !f.lastSuccessAt || Date.parse(f.lastErrorAt) > Date.parse(f.lastSuccessAt)
}

/** The scopes of a credential as people read them. */
export function xapiScopes(c: Pick<XAPICredential, 'canRead' | 'canWrite'>): string {
  if (c.canRead && c.canWrite) return 'Read and write'
  return c.canRead ? 'Read only' : 'Write only'
}
