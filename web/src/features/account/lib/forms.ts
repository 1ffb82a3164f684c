import { z } from 'zod'

/** The password rules, stated before anyone types (NIST SP 800-63B: length and a block list, no composition rules). */
export const PASSWORD_MIN = 8
export const PASSWORD_MAX = 128
export const PASSWORD_POLICY = `At least ${PASSWORD_MIN} characters, and not a common password. No other rules: a long phrase is easy to remember and hard to guess.`
export const DISPLAY_NAME_MAX = 80

const email = z
  .string()
  .trim()
  .min(1, 'Email is required.')
  .pipe(z.email('Email must be an address like name@example.com.'))

// Characters, not UTF-16 units: the server counts runes.
const length = (s: string) => [...s].length

const newPassword = (label: string) =>
  z
    .string()
    .refine((p) => p.length > 0, `${label} is required.`)
    .refine((p) => p.length === 0 || length(p) >= PASSWORD_MIN, `${label} must be at least ${PASSWORD_MIN} characters.`)
    .refine((p) => length(p) <= PASSWORD_MAX, `${label} must be at most ${PASSWORD_MAX} characters.`)

const displayName = z
  .string()
  .trim()
  .min(1, 'Display name is required.')
  .refine((n) => length(n) <= DISPLAY_NAME_MAX, `Display name must be at most ${DISPLAY_NAME_MAX} characters.`)

export const signUpFormSchema = z.object({ email, displayName, password: newPassword('Password') })
export type SignUpForm = z.infer<typeof signUpFormSchema>

export const ORGANISATION_NAME_MAX = 120
const organisationName = z
  .string()
  .trim()
  .min(1, 'Organisation name is required.')
  .refine((n) => length(n) <= ORGANISATION_NAME_MAX, `Organisation name must be at most ${ORGANISATION_NAME_MAX} characters.`)

/** The deployment's setup: its first organisation, and (signed out) the admin's new account. */
export const setupFormSchema = signUpFormSchema.extend({ organisationName })
export const setupOrganisationSchema = z.object({ organisationName })

export const signInFormSchema = z.object({
  email,
  password: z.string().min(1, 'Password is required.'),
})
export type SignInForm = z.infer<typeof signInFormSchema>

export const changePasswordFormSchema = z.object({
  currentPassword: z.string().min(1, 'Current password is required.'),
  newPassword: newPassword('New password'),
})
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>

export const displayNameFormSchema = z.object({ displayName })

export const resetPasswordFormSchema = z.object({ password: newPassword('New password') })

/** The result of checking a form before sending it: the cleaned values, or a message per field. */
export type Checked<T> = { ok: true; values: T } | { ok: false; fields: Partial<Record<keyof T & string, string>> }

/** Runs a form schema; each field keeps its first problem. */
export function checkForm<S extends z.ZodType<Record<string, unknown>>>(schema: S, values: unknown): Checked<z.infer<S>> {
  const result = schema.safeParse(values)
  if (result.success) return { ok: true, values: result.data }
  const fields: Partial<Record<string, string>> = {}
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? '')
    if (key && !fields[key]) fields[key] = issue.message
  }
  return { ok: false, fields: fields as Partial<Record<keyof z.infer<S> & string, string>> }
}

/** The labels server messages are worded with (a 400 names the field by its JSON name). */
export const accountFieldLabels = {
  email: 'email',
  displayName: 'display name',
  password: 'password',
  currentPassword: 'current password',
  newPassword: 'new password',
  inviteToken: '',
  organisationName: 'organisation name',
} as const
