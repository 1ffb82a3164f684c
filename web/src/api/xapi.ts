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

export const xapiKeys = {
  credentials: ['/api/organisation/xapi/credentials'] as const,
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

/** The scopes of a credential as people read them. */
export function xapiScopes(c: Pick<XAPICredential, 'canRead' | 'canWrite'>): string {
  if (c.canRead && c.canWrite) return 'Read and write'
  return c.canRead ? 'Read only' : 'Write only'
}
