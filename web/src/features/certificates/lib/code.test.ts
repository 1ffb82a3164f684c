import { describe, expect, it } from 'vitest'
import { normalizeCode, verifyPath, verifyUrl } from './code'

describe('normalizeCode', () => {
  it.each([
    ['JXR-7K2M-9QX4-D1FZ', 'JXR-7K2M-9QX4-D1FZ'],
    ['jxr-7k2m-9qx4-d1fz', 'JXR-7K2M-9QX4-D1FZ'],
    ['  JXR 7K2M 9QX4 D1FZ ', 'JXR-7K2M-9QX4-D1FZ'],
    ['jxr7k2m9qx4d1fz', 'JXR-7K2M-9QX4-D1FZ'],
    ['7K2M-9QX4-D1FZ', 'JXR-7K2M-9QX4-D1FZ'],
    // Misread letters: O is 0, I and L are 1.
    ['JXR-7K2M-9QX4-DIFZ', 'JXR-7K2M-9QX4-D1FZ'],
    ['JXR-7K2M-9QX4-DLFZ', 'JXR-7K2M-9QX4-D1FZ'],
    ['JXR-OOOO-0000-0000', 'JXR-0000-0000-0000'],
    // A code whose random part begins with JXR, typed without the prefix, keeps it.
    ['JXR1-2345-6789', 'JXR-JXR1-2345-6789'],
  ])('reads %j as %s', (typed, code) => {
    expect(normalizeCode(typed)).toBe(code)
  })

  it.each(['', 'hello', 'JXR-7K2M-9QX4', 'JXR-7K2M-9QX4-D1FZ-AAAA', 'JXR-7K2M-9QX4-D1FU', 'ABC-7K2M-9QX4-D1FZ', 'JXR-7K2M-9QX4-D1F!'])(
    'cannot read %j',
    (typed) => {
      expect(normalizeCode(typed)).toBeNull()
    },
  )
})

describe('verifyPath', () => {
  it('puts the code as printed in the address', () => {
    expect(verifyPath('jxr 7k2m 9qx4 d1fz')).toBe('/verify/JXR-7K2M-9QX4-D1FZ')
  })
  it('sends what cannot be a code as typed, escaped, for the server to explain', () => {
    expect(verifyPath(' not a code? ')).toBe('/verify/not%20a%20code%3F')
  })
  it('has no address for nothing, or for a slash', () => {
    expect(verifyPath('   ')).toBeNull()
    expect(verifyPath('JXR/7K2M')).toBeNull()
  })
})

it('verifyUrl is the origin and the code', () => {
  expect(verifyUrl('https://learn.example', 'JXR-7K2M-9QX4-D1FZ')).toBe('https://learn.example/verify/JXR-7K2M-9QX4-D1FZ')
})
