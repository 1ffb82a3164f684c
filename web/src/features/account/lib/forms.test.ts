import { describe, expect, it } from 'vitest'
import { changePasswordFormSchema, checkForm, signInFormSchema, signUpFormSchema } from './forms'

describe('sign-up form', () => {
  it('accepts a valid form, trimming the email and name', () => {
    expect(checkForm(signUpFormSchema, { email: ' ada@example.com ', displayName: ' Ada ', password: 'correct horse' })).toEqual({
      ok: true,
      values: { email: 'ada@example.com', displayName: 'Ada', password: 'correct horse' },
    })
  })

  it('names every problem, one per field', () => {
    expect(checkForm(signUpFormSchema, { email: 'not-an-address', displayName: '   ', password: 'short' })).toEqual({
      ok: false,
      fields: {
        email: 'Email must be an address like name@example.com.',
        displayName: 'Display name is required.',
        password: 'Password must be at least 8 characters.',
      },
    })
  })

  it('says a field is required rather than malformed when it is empty', () => {
    const got = checkForm(signUpFormSchema, { email: '', displayName: 'A', password: '' })
    expect(got).toEqual({ ok: false, fields: { email: 'Email is required.', password: 'Password is required.' } })
  })

  it('counts characters, not UTF-16 units, as the server does', () => {
    // Seven emoji are 14 UTF-16 units but 7 characters: too short.
    expect(checkForm(signUpFormSchema, { email: 'a@b.co', displayName: 'A', password: '😀'.repeat(7) }).ok).toBe(false)
    expect(checkForm(signUpFormSchema, { email: 'a@b.co', displayName: 'A', password: '😀'.repeat(8) }).ok).toBe(true)
    expect(checkForm(signUpFormSchema, { email: 'a@b.co', displayName: 'é'.repeat(80), password: 'x'.repeat(128) }).ok).toBe(true)
    expect(checkForm(signUpFormSchema, { email: 'a@b.co', displayName: 'é'.repeat(81), password: 'x'.repeat(129) })).toEqual({
      ok: false,
      fields: { displayName: 'Display name must be at most 80 characters.', password: 'Password must be at most 128 characters.' },
    })
  })

  it('leaves the common-password check to the server, which holds the list', () => {
    expect(checkForm(signUpFormSchema, { email: 'a@b.co', displayName: 'A', password: 'password' }).ok).toBe(true)
  })
})

describe('sign-in form', () => {
  it('needs both fields but applies no policy to the password', () => {
    expect(checkForm(signInFormSchema, { email: 'a@b.co', password: 'x' }).ok).toBe(true)
    expect(checkForm(signInFormSchema, { email: 'a@b.co', password: '' })).toEqual({ ok: false, fields: { password: 'Password is required.' } })
  })
})

describe('change-password form', () => {
  it('applies the policy to the new password only', () => {
    expect(checkForm(changePasswordFormSchema, { currentPassword: 'x', newPassword: 'long enough' }).ok).toBe(true)
    expect(checkForm(changePasswordFormSchema, { currentPassword: '', newPassword: 'short' })).toEqual({
      ok: false,
      fields: { currentPassword: 'Current password is required.', newPassword: 'New password must be at least 8 characters.' },
    })
  })
})
