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
 * organisation. `checking` while /api/me is on its way; `denied` carries a
 * line saying why, for callers who are signed in and might not know.
 */
export type DriveAccess = { state: 'checking' } | { state: 'allowed' } | { state: 'denied'; why: string | null }

/** The explanation a disabled control shows; "Sign in" is the link. */
export const DRIVE_SIGN_IN = 'Sign in'
export const DRIVE_EXPLANATION = 'as an instructor or admin to drive equipment.'

/**
 * Decides from the caller's identity. When /api/me could not be read the
 * monitor cannot tell, so it lets the server decide: its 401 or 403 message
 * is shown like any other error.
 */
export function driveAccess(me: TwinCaller | undefined, meFailed: boolean): DriveAccess {
  if (!me) return meFailed ? { state: 'allowed' } : { state: 'checking' }
  const staff = me.role === 'instructor' || me.role === 'admin'
  if (!me.guest && staff && me.organisation) return { state: 'allowed' }
  if (me.guest) return { state: 'denied', why: null }
  const who = me.displayName ? `${me.displayName}, ` : ''
  if (!staff) return { state: 'denied', why: `You are signed in as ${who}a learner.` }
  return { state: 'denied', why: `You are signed in as ${who}an ${me.role} of no organisation.` }
}

/** A write the server refused for who the caller is (401 not signed in, 403 not staff): the identity the page holds is stale. */
export function isIdentityRefusal(error: unknown): boolean {
  return error instanceof Error && /^40[13]: /.test(error.message)
}

/** /sign-in, coming back to where the caller was. */
export function signInHref(path: string): string {
  return path && path !== '/' ? `/sign-in?next=${encodeURIComponent(path)}` : '/sign-in'
}
