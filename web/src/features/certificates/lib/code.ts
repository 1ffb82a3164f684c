/**
 * Certificate codes as the server writes and reads them
 * (internal/portal/competencies.go: NewCode, NormalizeCode): JXR- and three
 * groups of four characters of Crockford's base 32, which has no I, L, O or
 * U to misread.
 */
const alphabet = /^[0-9A-HJKMNP-TV-Z]{12}$/

/**
 * Reads a code as a person may type it, the way the server does: any case,
 * with or without dashes and spaces, O for 0, I and L for 1. Answers the
 * code as printed, or null for text that cannot be a code. The server stays
 * the judge (its 400 says why); this only lets the address show the code as
 * printed, and one code share one cached answer however it was typed.
 */
export function normalizeCode(text: string): string | null {
  let s = text.replace(/[-\s]/g, '').toUpperCase()
  // Without the prefix a code has 12 characters; JXR may also begin the random part, so only 15 loses it.
  if (s.length === 15 && s.startsWith('JXR')) s = s.slice(3)
  s = s.replace(/O/g, '0').replace(/[IL]/g, '1')
  if (!alphabet.test(s)) return null
  return `JXR-${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8, 12)}`
}

/**
 * The app's verification page of a code; text that cannot be read as a code
 * goes as typed, for the server to say why. null for nothing, and for text
 * with a slash, which no address of one segment can carry (the router
 * decodes the path before it splits it).
 */
export function verifyPath(typed: string): string | null {
  const code = normalizeCode(typed) ?? typed.trim()
  if (code === '' || code.includes('/')) return null
  return `/verify/${encodeURIComponent(code)}`
}

/** The address printed on a certificate, where anyone can check it. */
export function verifyUrl(origin: string, code: string): string {
  return `${origin}/verify/${code}`
}
