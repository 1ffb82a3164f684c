import { describe, expect, it } from 'vitest'
import { demoRequestFormSchema } from './form-schema'

const valid = { name: 'Ada', email: 'ada@example.com', organisation: 'JATC', message: 'Show us the welding booth.', interest: '' }

function problems(input: Partial<typeof valid>) {
  const result = demoRequestFormSchema.safeParse({ ...valid, ...input })
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]))
}

describe('demoRequestFormSchema', () => {
  it('trims what it passes on, as the server does', () => {
    expect(demoRequestFormSchema.parse({ ...valid, name: '  Ada  ', interest: ' welding ' })).toEqual({ ...valid, interest: 'welding' })
  })

  it.each([
    [{ name: '   ' }, { name: 'Name is required.' }],
    [{ name: 'x'.repeat(101) }, { name: 'Name must be at most 100 characters.' }],
    [{ name: 'Ada\u0007' }, { name: 'Name must not contain control characters.' }],
    [{ email: '' }, { email: 'Email is required.' }],
    [{ email: `${'a'.repeat(250)}@x.io` }, { email: 'Email must be at most 254 characters.' }],
    [{ email: '@example.com' }, { email: 'Email must be an address like name@example.com.' }],
    [{ email: 'ada@localhost' }, { email: 'Email must be an address like name@example.com.' }],
    [{ email: 'ada@example.com.' }, { email: 'Email must be an address like name@example.com.' }],
    [{ organisation: 'o'.repeat(151) }, { organisation: 'Organisation must be at most 150 characters.' }],
    [{ message: '' }, { message: 'Message is required.' }],
    [{ message: 'Too short' }, { message: 'Message must be at least 10 characters.' }],
    [{ interest: 'i'.repeat(61) }, { interest: 'Area of interest must be at most 60 characters.' }],
  ])('%j: %j', (input, want) => {
    expect(problems(input)).toEqual(want)
  })

  it('counts characters, not UTF-16 units, and lets a message hold line breaks', () => {
    expect(problems({ name: '👷'.repeat(100), message: 'Line one\n\tline two' })).toEqual({})
  })
})
