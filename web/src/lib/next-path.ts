/** Where sign-in goes when it was not sent from a page that needs an account. */
export const DEFAULT_AFTER_SIGN_IN = '/account'

/** Pages that make no sense to return to after signing in. */
const accountEntryPaths = ['/sign-in', '/sign-up']

/**
 * The path to return to after sign-in, from a ?next= value. Only a path on
 * this site is taken: anything that could leave it (another origin,
 * "//host", "/\\host", a scheme, control characters) gives the default, so
 * the sign-in page cannot be made into an open redirect.
 */
export function safeNextPath(next: string | null | undefined, fallback = DEFAULT_AFTER_SIGN_IN): string {
  if (!next || next.length > 2048) return fallback
  // Browsers drop tabs and newlines inside URLs and read "\" as "/": "/\t/evil.example" is "//evil.example".
  if (!next.startsWith('/') || next.startsWith('//') || hasControlOrBackslash(next)) return fallback
  const base = 'http://journeyman.invalid'
  let url: URL
  try {
    url = new URL(next, base)
  } catch {
    return fallback
  }
  if (url.origin !== base) return fallback
  const path = url.pathname.toLowerCase().replace(/\/$/, '') || '/'
  if (accountEntryPaths.includes(path)) return fallback
  return url.pathname + url.search + url.hash
}

/** /sign-in with the page to come back to (no next for the default). */
export function signInPath(next?: string | null): string {
  const safe = safeNextPath(next, '')
  return safe ? `/sign-in?next=${encodeURIComponent(safe)}` : '/sign-in'
}

/** /sign-up, likewise. */
export function signUpPath(next?: string | null): string {
  const safe = safeNextPath(next, '')
  return safe ? `/sign-up?next=${encodeURIComponent(safe)}` : '/sign-up'
}

function hasControlOrBackslash(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code <= 0x1f || code === 0x7f || code === 0x5c) return true
  }
  return false
}
