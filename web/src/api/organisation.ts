import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { ApiError, apiRequest, apiRequestText } from '@/lib/api'
import { totalCount } from '@/api/parse'

/** The roles an organisation gives its members. */
export const memberRoles = ['learner', 'instructor', 'admin'] as const
export type MemberRole = (typeof memberRoles)[number]

const ref = z.object({ id: z.string(), name: z.string() })
/** A person named in another record; the server calls the name `name` there, the contract `displayName`: either is read. */
const personRef = z
  .object({ id: z.string(), displayName: z.string().optional(), name: z.string().optional() })
  .transform(({ id, displayName, name }) => ({ id, displayName: displayName ?? name ?? '' }))

export const organisationSchema = z.object({ id: z.string(), name: z.string(), createdAt: z.string() })
export type Organisation = z.infer<typeof organisationSchema>

export const memberSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  email: z.string(),
  role: z.enum(memberRoles),
  cohorts: z.array(ref),
  /** The cohorts whose instructor they are. */
  teaches: z.array(ref).default([]),
  /** null for a member whose joining was not recorded (an account made before organisations). */
  joinedAt: z.string().nullable(),
})
export type Member = z.infer<typeof memberSchema>

export const inviteSchema = z.object({
  id: z.string(),
  role: z.enum(memberRoles),
  cohort: ref.nullable(),
  maxUses: z.number().int(),
  uses: z.number().int(),
  expiresAt: z.string(),
  revoked: z.boolean(),
  createdAt: z.string(),
  createdBy: personRef,
})
export type Invite = z.infer<typeof inviteSchema>

/** The answer to creating an invite: the invite and its link, shown this once. */
export const createdInviteSchema = inviteSchema.extend({ url: z.string() })
export type CreatedInvite = z.infer<typeof createdInviteSchema>

export const passwordResetLinkSchema = z.object({ url: z.string(), expiresAt: z.string() })
export type PasswordResetLink = z.infer<typeof passwordResetLinkSchema>

export const rosterOutcomes = ['create', 'update', 'unchanged', 'error'] as const
export type RosterOutcome = (typeof rosterOutcomes)[number]

export const rosterRowSchema = z.object({
  line: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  cohort: z.string(),
  outcome: z.enum(rosterOutcomes),
  message: z.string(),
  setupUrl: z.string().optional(),
})
export type RosterRow = z.infer<typeof rosterRowSchema>

export const rosterReportSchema = z.object({
  dryRun: z.boolean(),
  applied: z.boolean(),
  rows: z.array(rosterRowSchema),
  counts: z.object({ create: z.number().int(), update: z.number().int(), unchanged: z.number().int(), error: z.number().int() }),
})
export type RosterReport = z.infer<typeof rosterReportSchema>

export const cohortSchema = z.object({
  id: z.string(),
  name: z.string(),
  instructor: personRef,
  memberCount: z.number().int(),
  createdAt: z.string(),
})
export type Cohort = z.infer<typeof cohortSchema>

export const cohortMemberSchema = z.object({ id: z.string(), displayName: z.string(), email: z.string(), role: z.enum(memberRoles) })
export type CohortMember = z.infer<typeof cohortMemberSchema>

export const cohortDetailSchema = cohortSchema.extend({ members: z.array(cohortMemberSchema) })
export type CohortDetail = z.infer<typeof cohortDetailSchema>

export interface MembersParams {
  q: string
  limit: number
  offset: number
}

export interface MembersPage {
  members: Member[]
  /** X-Total-Count: every member matching q, not only this page. */
  total: number
}

export const organisationKeys = {
  all: ['/api/organisation'] as const,
  membersAll: ['/api/organisation/members'] as const,
  members: (params: MembersParams) => ['/api/organisation/members', params] as const,
  invites: ['/api/organisation/invites'] as const,
}

export const cohortKeys = {
  all: ['/api/cohorts'] as const,
  detail: (id: string) => ['/api/cohorts', id] as const,
}

async function getJSON<T>(url: string, schema: z.ZodType<T>): Promise<T> {
  const res = await apiRequest('GET', url)
  return schema.parse(await res.json())
}

/** GET /api/organisation → the caller's organisation. */
export const organisationQueryOptions = () =>
  queryOptions({ queryKey: organisationKeys.all, queryFn: () => getJSON('/api/organisation', organisationSchema) })

export function useOrganisation(enabled = true) {
  return useQuery({ ...organisationQueryOptions(), enabled })
}

/** GET /api/organisation/members?limit&offset&q (instructor, admin) → one page and the total. */
export async function getMembers(params: MembersParams): Promise<MembersPage> {
  const search = new URLSearchParams({ limit: String(params.limit), offset: String(params.offset) })
  if (params.q) search.set('q', params.q)
  const res = await apiRequest('GET', `/api/organisation/members?${search}`)
  const members = z.array(memberSchema).parse(await res.json())
  return { members, total: totalCount(res, params.offset, members.length) }
}

export const membersQueryOptions = (params: MembersParams) =>
  queryOptions({ queryKey: organisationKeys.members(params), queryFn: () => getMembers(params) })

/** A page of members; the previous page stays on screen while the next loads, so the table does not jump. */
export function useMembers(params: MembersParams, enabled = true) {
  return useQuery({ ...membersQueryOptions(params), placeholderData: keepPreviousData, enabled })
}

/**
 * What the portal (api/portal.ts) reads under /api/portal: its learner lists
 * and figures follow cohort membership. Spelled out here because that module
 * builds on this one's schemas.
 */
const portalKey = ['/api/portal'] as const

/** Member changes show in the member list, in cohort member lists and counts, and in the portal. */
function useInvalidateMembers() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: organisationKeys.membersAll }),
      queryClient.invalidateQueries({ queryKey: cohortKeys.all }),
      queryClient.invalidateQueries({ queryKey: portalKey }),
    ])
}

/**
 * GET /api/me's key (api/account.ts, which builds on this module): a role
 * is the caller's too when an admin changes their own.
 */
const meKey = ['/api/me'] as const

/**
 * PATCH /api/organisation/members/{userId} {role} (admin) → Member; 409 when it would leave no admin.
 * An admin who changes their own role is asked who they are again, so the pages stop offering what the old role could do.
 */
export function useUpdateMemberRole() {
  const queryClient = useQueryClient()
  const invalidate = useInvalidateMembers()
  return useMutation({
    mutationFn: async ({ userId, role }: { userId: string; role: MemberRole }) => {
      const res = await apiRequest('PATCH', `/api/organisation/members/${encodeURIComponent(userId)}`, { role })
      return memberSchema.parse(await res.json())
    },
    onSuccess: (updated) =>
      Promise.all([
        invalidate(),
        queryClient.getQueryData<{ id: string }>(meKey)?.id === updated.id && queryClient.invalidateQueries({ queryKey: meKey }),
      ]),
  })
}

/** DELETE /api/organisation/members/{userId} (admin) → 204: the account leaves the organisation and its cohorts. */
export function useRemoveMember() {
  const invalidate = useInvalidateMembers()
  return useMutation({
    mutationFn: async (userId: string) => {
      await apiRequest('DELETE', `/api/organisation/members/${encodeURIComponent(userId)}`)
    },
    onSuccess: invalidate,
  })
}

/** POST /api/organisation/members/{userId}/password-reset (admin) → a link for the admin to hand over. */
export function useCreatePasswordResetLink() {
  return useMutation({
    mutationFn: async (userId: string) => {
      const res = await apiRequest('POST', `/api/organisation/members/${encodeURIComponent(userId)}/password-reset`)
      return passwordResetLinkSchema.parse(await res.json())
    },
  })
}

/** GET /api/organisation/invites (admin). */
export const invitesQueryOptions = () =>
  queryOptions({ queryKey: organisationKeys.invites, queryFn: () => getJSON('/api/organisation/invites', z.array(inviteSchema)) })

export function useInvites(enabled = true) {
  return useQuery({ ...invitesQueryOptions(), enabled })
}

export interface CreateInviteInput {
  role: MemberRole
  cohortId?: string
  /** 1..30 */
  expiresInDays: number
  /** 1..1000; 1 is a single-use link. */
  maxUses: number
}

/** POST /api/organisation/invites (admin) → 201 the invite with its url. */
export function useCreateInvite() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: CreateInviteInput) => {
      const res = await apiRequest('POST', '/api/organisation/invites', input)
      return createdInviteSchema.parse(await res.json())
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organisationKeys.invites }),
  })
}

/** DELETE /api/organisation/invites/{id} (admin) → 204, revoked. */
export function useRevokeInvite() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', `/api/organisation/invites/${encodeURIComponent(id)}`)
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organisationKeys.invites }),
  })
}

/**
 * POST /api/organisation/roster?dryRun= with the CSV. A run with error rows
 * answers 422 with the same report (nothing written), which is an answer to
 * show, not a failure: it resolves to that report.
 */
export async function importRoster(csv: string, dryRun: boolean): Promise<RosterReport> {
  try {
    const res = await apiRequestText('POST', `/api/organisation/roster?dryRun=${dryRun}`, csv, 'text/csv; charset=utf-8')
    return rosterReportSchema.parse(await res.json())
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) {
      const report = rosterReportSchema.safeParse(safeJSON(error.body))
      if (report.success) return report.data
    }
    throw error
  }
}

function safeJSON(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** The dry run writes nothing; an applied import adds members and may create cohorts. */
export function useImportRoster() {
  const invalidate = useInvalidateMembers()
  return useMutation({
    mutationFn: ({ csv, dryRun }: { csv: string; dryRun: boolean }) => importRoster(csv, dryRun),
    onSuccess: async (report) => {
      if (report.applied) await invalidate()
    },
  })
}

/** GET /api/cohorts: the caller's cohorts (an admin: all of the organisation's). */
export const cohortsQueryOptions = () => queryOptions({ queryKey: cohortKeys.all, queryFn: () => getJSON('/api/cohorts', z.array(cohortSchema)) })

export function useCohorts(enabled = true) {
  return useQuery({ ...cohortsQueryOptions(), enabled })
}

/** GET /api/cohorts/{id}: a cohort and its members. */
export const cohortQueryOptions = (id: string) =>
  queryOptions({ queryKey: cohortKeys.detail(id), queryFn: () => getJSON(`/api/cohorts/${encodeURIComponent(id)}`, cohortDetailSchema) })

export function useCohort(id: string | null) {
  return useQuery({ ...cohortQueryOptions(id ?? ''), enabled: !!id })
}

/**
 * Cohort changes show in the cohort list and detail, in the members' cohort
 * column, in the invite form's cohort choice (['/api/cohorts'] covers
 * the list and every detail), and in the portal.
 */
function useInvalidateCohorts() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: cohortKeys.all }),
      queryClient.invalidateQueries({ queryKey: organisationKeys.membersAll }),
      queryClient.invalidateQueries({ queryKey: portalKey }),
    ])
}

/** POST /api/cohorts {name, instructorId?} → 201 Cohort. */
export function useCreateCohort() {
  const invalidate = useInvalidateCohorts()
  return useMutation({
    mutationFn: async (input: { name: string; instructorId?: string }) => {
      const res = await apiRequest('POST', '/api/cohorts', input)
      return cohortSchema.parse(await res.json())
    },
    onSuccess: invalidate,
  })
}

/** PATCH /api/cohorts/{id} {name?, instructorId?} → Cohort. */
export function useUpdateCohort() {
  const invalidate = useInvalidateCohorts()
  return useMutation({
    mutationFn: async ({ id, ...patch }: { id: string; name?: string; instructorId?: string }) => {
      const res = await apiRequest('PATCH', `/api/cohorts/${encodeURIComponent(id)}`, patch)
      return cohortSchema.parse(await res.json())
    },
    onSuccess: invalidate,
  })
}

/** POST /api/cohorts/{id}/members {userId} → 204. */
export function useAddCohortMember() {
  const invalidate = useInvalidateCohorts()
  return useMutation({
    mutationFn: async ({ cohortId, userId }: { cohortId: string; userId: string }) => {
      await apiRequest('POST', `/api/cohorts/${encodeURIComponent(cohortId)}/members`, { userId })
    },
    onSuccess: invalidate,
  })
}

/** DELETE /api/cohorts/{id}/members/{userId} → 204. */
export function useRemoveCohortMember() {
  const invalidate = useInvalidateCohorts()
  return useMutation({
    mutationFn: async ({ cohortId, userId }: { cohortId: string; userId: string }) => {
      await apiRequest('DELETE', `/api/cohorts/${encodeURIComponent(cohortId)}/members/${encodeURIComponent(userId)}`)
    },
    onSuccess: invalidate,
  })
}
