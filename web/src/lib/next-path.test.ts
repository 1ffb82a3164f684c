import { describe, expect, it } from 'vitest'
import { DEFAULT_AFTER_SIGN_IN, safeNextPath, signInPath } from './next-path'

describe('safeNextPath', () => {
  const kept: [string, string][] = [
    ['/account', '/account'],
    ['/organisation?tab=roster', '/organisation?tab=roster'],
    ['/invite/AbC-123_x', '/invite/AbC-123_x'],
    ['/learning-hub#refreshers', '/learning-hub#refreshers'],
    ['/', '/'],
  ]
  for (const [next, want] of kept) {
    it(`keeps the same-site path ${next}`, () => expect(safeNextPath(next)).toBe(want))
  }

  const refused = [
    null,
    undefined,
    '',
    'account',
    'https://evil.example/account',
    '//evil.example/account',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'javascript:alert(1)',
    '/sign-in',
    '/Sign-In/',
    '/sign-up?invite=x',
    '/' + 'a'.repeat(3000),
  ]
  for (const next of refused) {
    it(`refuses ${JSON.stringify(next)}`, () => expect(safeNextPath(next)).toBe(DEFAULT_AFTER_SIGN_IN))
  }

  it('a path whose own text is harmless but encodes another host stays on this site', () => {
    expect(safeNextPath('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example')
  })

  it('takes the fallback it is given', () => expect(safeNextPath('//x', '/')).toBe('/'))
})

describe('signInPath', () => {
  it('carries a safe next', () => expect(signInPath('/organisation?tab=invites')).toBe('/sign-in?next=%2Forganisation%3Ftab%3Dinvites'))
  it('drops an unsafe next', () => expect(signInPath('https://evil.example')).toBe('/sign-in'))
  it('does not point back at itself', () => expect(signInPath('/sign-in?next=/account')).toBe('/sign-in'))
})
