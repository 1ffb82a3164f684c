import { describe, expect, it } from 'vitest'
import { ApiError } from './api'
import { formErrors, throttleMessage } from './form-errors'

const labels = { email: 'email', displayName: 'display name', password: 'password', newPassword: 'new password', inviteToken: '' }
const answer = (status: number, message: string, retryAfter: string | null = null) =>
  new ApiError(status, JSON.stringify({ message }), '', retryAfter)

describe('formErrors', () => {
  it('puts a 400 naming a field under that field, worded with its label', () => {
    expect(formErrors(answer(400, 'password must be at least 8 characters'), labels)).toEqual({
      fields: { password: 'Password must be at least 8 characters.' },
    })
    expect(formErrors(answer(400, 'displayName must be 1 to 80 characters'), labels)).toEqual({
      fields: { displayName: 'Display name must be 1 to 80 characters.' },
    })
  })

  it('keeps the case of a message that starts with a name written as code', () => {
    expect(formErrors(answer(400, 'cmi5.xml: au[0] (intro): masteryScore "1.7" is not a decimal from 0 to 1'), {}).form).toBe(
      'cmi5.xml: au[0] (intro): masteryScore "1.7" is not a decimal from 0 to 1.',
    )
    expect(formErrors(answer(409, 'the roster names this person twice'), {}).form).toBe('The roster names this person twice.')
  })

  it('reads the "field: problem" form too', () => {
    expect(formErrors(answer(400, 'email: must be an email address like name@example.com'), labels).fields.email).toBe(
      'Email must be an email address like name@example.com.',
    )
  })

  it('keeps a "; " inside one field\'s message and splits only where another field starts', () => {
    const got = formErrors(answer(400, 'password is one of the most commonly used passwords; choose another; email is required'), labels)
    expect(got).toEqual({
      fields: { password: 'Password is one of the most commonly used passwords; choose another.', email: 'Email is required.' },
    })
  })

  it('prefers the longest field name (newPassword is not "new" + Password)', () => {
    expect(formErrors(answer(400, 'newPassword must be at most 128 characters'), labels).fields).toEqual({
      newPassword: 'New password must be at most 128 characters.',
    })
  })

  it('uses the rest of the clause alone for a field labelled ""', () => {
    expect(formErrors(answer(400, 'inviteToken: this invite link is used up'), labels).fields.inviteToken).toBe('This invite link is used up.')
  })

  it('keeps a 400 naming no field for the form', () => {
    expect(formErrors(answer(400, 'malformed JSON: the body ends too early'), labels)).toEqual({
      fields: {},
      form: 'Malformed JSON: the body ends too early.',
    })
  })

  it('shows the server\'s generic 401 text for the form', () => {
    expect(formErrors(answer(401, 'email or password is incorrect'), labels)).toEqual({ fields: {}, form: 'Email or password is incorrect.' })
  })

  it('counts a 429 down from Retry-After', () => {
    expect(formErrors(answer(429, 'too many sign-in attempts', '42'), labels).form).toBe('Too many attempts; try again in 42 seconds.')
    expect(throttleMessage(1)).toBe('Too many attempts; try again in 1 second.')
    expect(formErrors(answer(429, 'x'), labels).form).toBe('Too many attempts; try again later.')
  })

  it('hides a server failure behind a plain message', () => {
    expect(formErrors(answer(500, 'internal error'), labels).form).toBe('Something went wrong on our side (500). Please try again.')
  })

  it('tells a network failure apart', () => {
    expect(formErrors(new TypeError('Failed to fetch'), labels).form).toMatch(/Could not reach the server/)
  })

  it('reads a body that is not JSON as the message', () => {
    expect(formErrors(new ApiError(409, 'conflict here', 'Conflict', null), labels).form).toBe('Conflict here.')
  })
})
