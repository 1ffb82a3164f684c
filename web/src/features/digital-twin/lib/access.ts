/** What the monitor needs to know of the caller (GET /api/me). */
export interface TwinCaller {
  guest: boolean
  displayName: string
  role: string
  organisation: { id: string; name: string } | null
}

/**
 * Whether the caller may drive the twins (Update Sensors, Test Protocol):
 * the server takes those writes only from an instructor or admin of an
 * organisation, and for a twin an organisation added, only from its own.
 * `checking` while /api/me is on its way; `denied` carries a line saying
 * why, for callers who are signed in and might not know, and `signIn:
 * false` when signing in as someone else is not the way (another
 * organisation's twin).
 */
export type DriveAccess = { state: 'checking' } | { state: 'allowed' } | { state: 'denied'; why: string | null; signIn?: false }

/** Whose a twin is: organisationId is absent for the shared seeded fleet. */
export interface TwinOwnership {
  name: string
  organisationId?: string | null
}

/** The explanation a disabled control shows; "Sign in" is the link. */
export const DRIVE_SIGN_IN = 'Sign in'
export const DRIVE_EXPLANATION = 'as an instructor or admin to drive equipment.'

/**
 * Decides from the caller's identity. When /api/me could not be read the
 * monitor cannot tell, so it lets the server decide: its 401 or 403 message
 * is shown like any other error.
 */
export function driveAccess(me: TwinCaller | undefined, meFailed: boolean, twin?: TwinOwnership): DriveAccess {
  if (!me) return meFailed ? { state: 'allowed' } : { state: 'checking' }
  const staff = me.role === 'instructor' || me.role === 'admin'
  if (!me.guest && staff && me.organisation) {
    if (twin?.organisationId && twin.organisationId !== me.organisation.id) {
      return { state: 'denied', why: `${twin.name} belongs to another organisation: only its instructors and admins drive it.`, signIn: false }
    }
    return { state: 'allowed' }
  }
  if (me.guest) return { state: 'denied', why: null }
  const who = me.displayName ? `${me.displayName}, ` : ''
  if (!staff) return { state: 'denied', why: `You are signed in as ${who}a learner.` }
  return { state: 'denied', why: `You are signed in as ${who}an ${me.role} of no organisation.` }
}

/**
 * Whether the caller may change, retire or connect a twin: staff of the
 * organisation that added it. The shared seeded fleet is no one's to change.
 */
export function managesTwin(me: TwinCaller | undefined, twin: TwinOwnership): boolean {
  return Boolean(twin.organisationId) && driveAccess(me, false, twin).state === 'allowed'
}

/** A write the server refused for who the caller is (401 not signed in, 403 not staff): the identity the page holds is stale. */
export function isIdentityRefusal(error: unknown): boolean {
  return error instanceof Error && /^40[13]: /.test(error.message)
}

/** /sign-in, coming back to where the caller was. */
export function signInHref(path: string): string {
  return path && path !== '/' ? `/sign-in?next=${encodeURIComponent(path)}` : '/sign-in'
}
