import { describe, expect, it } from 'vitest'
import { joinedMessage } from './joined'

describe('joinedMessage', () => {
  it('names the organisation and the role the invite gave', () => {
    expect(joinedMessage({ role: 'instructor', organisation: { name: 'Northside Training Centre' } })).toEqual({
      title: 'Welcome to Northside Training Centre',
      description: 'You joined as instructor. Your training records come with you.',
    })
  })

  it('says nothing when the answer has no organisation', () => {
    expect(joinedMessage({ role: 'learner', organisation: null })).toBeNull()
  })
})
