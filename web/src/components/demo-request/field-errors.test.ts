import { describe, expect, it } from 'vitest'
import { submissionErrors } from './field-errors'

describe('submissionErrors', () => {
  it('gives each field its own message from a 400', () => {
    const err = new Error(
      '400: {"message":"name: is required; email: must be an address like name@example.com; message: must be at least 10 characters"}\n',
    )
    expect(submissionErrors(err)).toEqual({
      fields: {
        name: 'Name is required.',
        email: 'Email must be an address like name@example.com.',
        message: 'Message must be at least 10 characters.',
      },
    })
  })

  it('keeps a 400 that names no field as a form message', () => {
    expect(submissionErrors(new Error('400: {"message":"unknown field \\"phone\\""}'))).toEqual({
      fields: {},
      form: 'Unknown field "phone"',
    })
  })

  it('shows the rate limit as it is', () => {
    const got = submissionErrors(new Error('429: {"message":"you have sent 5 demo requests in the last hour"}'))
    expect(got).toEqual({ fields: {}, form: 'You have sent 5 demo requests in the last hour' })
  })

  it('hides server failures behind a plain message', () => {
    expect(submissionErrors(new Error('500: {"message":"internal error"}')).form).toBe(
      'Something went wrong on our side (500). Please try again.',
    )
  })

  it('tells a network failure apart', () => {
    expect(submissionErrors(new TypeError('Failed to fetch')).form).toMatch(/Could not reach the server/)
  })
})
