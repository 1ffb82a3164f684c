import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'
import { cohortKeys, organisationKeys } from '@/api/organisation'
import { load } from '@/api/parse'

/** Who may do what: a guest has no account; an account's role comes from its organisation (learner without one). */
export const roles = ['guest', 'learner', 'instructor', 'admin'] as const
export type Role = (typeof roles)[number]

export const roleLabels: Record<Role, string> = {
  guest: 'Guest',
  learner: 'Learner',
  instructor: 'Instructor',
  admin: 'Admin',
}

export const organisationRefSchema = z.object({ id: z.string(), name: z.string() })

/**
 * GET /api/me. A server without accounts answered only {id, displayName,
 * guest}; the other fields default from those so a page never breaks on an
 * older answer.
 */
export const meSchema = z
  .object({
    id: z.string(),
    displayName: z.string().catch(''),
    guest: z.boolean().catch(true),
    email: z.string().nullable().default(null),
    role: z.enum(roles).optional(),
    organisation: organisationRefSchema.nullable().default(null),
  })
  .transform((me) => ({ ...me, role: me.role ?? (me.guest ? 'guest' : 'learner') }) as const)
export type Me = z.infer<typeof meSchema>

/** Whether this identity may open /organisation. */
export function canManageOrganisation(me: Me | undefined): boolean {
  return !!me && !me.guest && !!me.organisation && (me.role === 'instructor' || me.role === 'admin')
}

export const accountKeys = {
  me: ['/api/me'] as const,
  passwordReset: (token: string) => ['/api/account/password-reset', token] as const,
  invite: (token: string) => ['/api/invites', token] as const,
  setup: (token: string) => ['/api/setup', token] as const,
}

/**
 * GET /api/me: the caller's identity; its id is the userId of
 * /api/users/{userId}/…. The one place the app asks who the caller is: every
 * page reads it through useMe(), and identity changes go through
 * switchIdentity.
 */
export async function getMe(): Promise<Me> {
  return load('/api/me', meSchema)
}

export const meQueryOptions = () => queryOptions({ queryKey: accountKeys.me, queryFn: getMe })

export function useMe() {
  return useQuery(meQueryOptions())
}

/** Answers about a link, the same for anyone who holds it: an identity change leaves them. */
const identityIndependent = new Set<unknown>([accountKeys.invite('')[0], accountKeys.passwordReset('')[0], accountKeys.setup('')[0]])

/**
 * Every per-user answer in the cache belonged to the previous identity, so
 * after sign-in, sign-up, sign-out (or anything else that swaps the
 * identity) the whole cache is reset: active queries refetch as the new
 * identity, inactive ones start empty. The new Me, when the answer carried
 * it, is put in place first so the navigation does not flicker.
 */
export async function switchIdentity(queryClient: QueryClient, me: Me | null): Promise<void> {
  const predicate = (query: { queryKey: readonly unknown[] }) => {
    const root = query.queryKey[0]
    if (identityIndependent.has(root)) return false
    return !(me && root === accountKeys.me[0])
  }
  // An answer still on its way was asked for by the old identity.
  await queryClient.cancelQueries({ predicate })
  // The old identity's records (keyed by its id), reset while a page still
  // shows them, were asked again as the new one and refused (403s on
  // signing out from the XR Training Center): they go instead, and the page
  // asks for the new identity's once it knows its id.
  const previous = queryClient.getQueryData<Me>(accountKeys.me)?.id
  if (previous && previous !== me?.id) queryClient.removeQueries({ predicate: (query) => query.queryKey.includes(previous) })
  if (me) queryClient.setQueryData(accountKeys.me, me)
  await queryClient.resetQueries({ predicate })
}

async function postMe(url: string, body: unknown): Promise<Me> {
  const res = await apiRequest('POST', url, body)
  return meSchema.parse(await res.json())
}

export interface SignUpInput {
  email: string
  password: string
  displayName: string
  inviteToken?: string
}

export interface SignInInput {
  email: string
  password: string
}

/** POST /api/account/sign-up → 201 Me, signed in; the guest's records move into the account. */
export const signUp = (input: SignUpInput) => postMe('/api/account/sign-up', input)
/** POST /api/account/sign-in → 200 Me. */
export const signIn = (input: SignInInput) => postMe('/api/account/sign-in', input)

/** A mutation whose answer is the new identity. */
function useIdentityMutation<T>(mutationFn: (input: T) => Promise<Me>) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn, onSuccess: (me) => switchIdentity(queryClient, me) })
}

export function useSignUp() {
  return useIdentityMutation(signUp)
}

export function useSignIn() {
  return useIdentityMutation(signIn)
}

/**
 * A sign-out's mutation. leave goes from a page only for an account to
 * another, and says whether it did: the page goes first, its queries with
 * it, before the cache is reset; reset while it is still on screen, they
 * were asked again as a guest (401s and 403s in the console).
 */
function useSignOutMutation(url: string, leave?: () => boolean) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async () => {
      await apiRequest('POST', url)
    },
    onSuccess: async () => {
      // The navigation renders before the next task: the page is gone by then.
      if (leave?.()) await new Promise((resolve) => setTimeout(resolve, 0))
      await switchIdentity(queryClient, null)
    },
  })
}

/** POST /api/account/sign-out → 204; the browser is a fresh guest. */
export function useSignOut(leave?: () => boolean) {
  return useSignOutMutation('/api/account/sign-out', leave)
}

/** POST /api/account/sign-out-everywhere → 204: every session of the account ends, this one too. */
export function useSignOutEverywhere(leave?: () => boolean) {
  return useSignOutMutation('/api/account/sign-out-everywhere', leave)
}

export interface ChangePasswordInput {
  currentPassword: string
  newPassword: string
}

/** POST /api/account/password → 204; the account's other sessions end, this one stays, so nothing cached changes. */
export function useChangePassword() {
  return useMutation({
    mutationFn: async (input: ChangePasswordInput) => {
      await apiRequest('POST', '/api/account/password', input)
    },
  })
}

/** PATCH /api/account {displayName} → Me. The name also shows in member and cohort lists. */
export function useUpdateAccount() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: { displayName: string }) => {
      const res = await apiRequest('PATCH', '/api/account', input)
      return meSchema.parse(await res.json())
    },
    onSuccess: async (me) => {
      queryClient.setQueryData(accountKeys.me, me)
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: organisationKeys.all }),
        queryClient.invalidateQueries({ queryKey: organisationKeys.membersAll }),
        queryClient.invalidateQueries({ queryKey: cohortKeys.all }),
      ])
    },
  })
}

export const passwordResetSchema = z.object({ email: z.string() })
export type PasswordReset = z.infer<typeof passwordResetSchema>

/** GET /api/account/password-reset/{token} → {email}; 404 when the link is invalid or used. */
export const passwordResetQueryOptions = (token: string) =>
  queryOptions({
    queryKey: accountKeys.passwordReset(token),
    queryFn: async () => {
      const res = await apiRequest('GET', `/api/account/password-reset/${encodeURIComponent(token)}`)
      return passwordResetSchema.parse(await res.json())
    },
  })

export function usePasswordReset(token: string) {
  return useQuery(passwordResetQueryOptions(token))
}

/** POST /api/account/password-reset {token, password} → Me, signed in; the link is used up. */
export function useResetPassword() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: { token: string; password: string }) => postMe('/api/account/password-reset', input),
    onSuccess: async (me, input) => {
      await switchIdentity(queryClient, me)
      queryClient.removeQueries({ queryKey: accountKeys.passwordReset(input.token) })
    },
  })
}

export const inviteInfoSchema = z.object({
  organisation: organisationRefSchema,
  role: z.enum(['learner', 'instructor', 'admin']),
  cohort: z.object({ id: z.string(), name: z.string() }).nullable(),
  expiresAt: z.string(),
})
export type InviteInfo = z.infer<typeof inviteInfoSchema>

/** GET /api/invites/{token} (anyone) → what the invite grants; 404 when invalid, expired or used up. */
export const inviteQueryOptions = (token: string) =>
  queryOptions({
    queryKey: accountKeys.invite(token),
    queryFn: async () => {
      const res = await apiRequest('GET', `/api/invites/${encodeURIComponent(token)}`)
      return inviteInfoSchema.parse(await res.json())
    },
  })

export function useInvite(token: string) {
  return useQuery(inviteQueryOptions(token))
}

/** POST /api/invites/{token}/accept → Me: the account joins the organisation, so every per-user answer may change. */
export function useAcceptInvite() {
  return useIdentityMutation((token: string) => postMe(`/api/invites/${encodeURIComponent(token)}/accept`, undefined))
}

/** GET /api/setup/{token} (anyone) → when the link expires, or setUp once the deployment is set up (no link works then); 404 when unknown or expired. */
export const setupLinkQueryOptions = (token: string) =>
  queryOptions({
    queryKey: accountKeys.setup(token),
    queryFn: async () => {
      const res = await apiRequest('GET', `/api/setup/${encodeURIComponent(token)}`)
      return z.object({ setUp: z.boolean(), expiresAt: z.string().optional() }).parse(await res.json())
    },
  })

export function useSetupLink(token: string) {
  return useQuery(setupLinkQueryOptions(token))
}

/** The first organisation and its admin: a new account, or (signed in) organisationName alone for the caller's. */
export interface SetUpInput {
  organisationName: string
  email?: string
  displayName?: string
  password?: string
}

/** POST /api/setup/{token} → 201 Me, the admin of the deployment's first organisation, signed in; every setup link is spent. */
export function useSetUp(token: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: SetUpInput) => postMe(`/api/setup/${encodeURIComponent(token)}`, input),
    onSuccess: async (me) => {
      await switchIdentity(queryClient, me)
      queryClient.removeQueries({ queryKey: accountKeys.setup(token) })
    },
  })
}
