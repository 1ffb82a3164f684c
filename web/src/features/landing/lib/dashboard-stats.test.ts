import { describe, expect, it } from 'vitest'
import { formatCount, formatSafetyScore, statsScopeText } from './dashboard-stats'

describe('formatting', () => {
  it('shows the safety score with one decimal', () => {
    expect(formatSafetyScore(0)).toBe('0.0%')
    expect(formatSafetyScore(87)).toBe('87.0%')
    expect(formatSafetyScore(83.56)).toBe('83.6%')
  })
  it('groups thousands in counts', () => {
    expect(formatCount(0)).toBe('0')
    expect(formatCount(12345)).toBe('12,345')
  })
})

describe('statsScopeText', () => {
  it("names the caller's organisation when the figures are its own", () => {
    expect(statsScopeText('organisation', 'Riverside Plant Training').label).toBe('Riverside Plant Training · your organisation')
    expect(statsScopeText('organisation', undefined).label).toBe('Your organisation')
  })
  it('says the figures are the platform’s otherwise', () => {
    expect(statsScopeText('platform', 'Riverside Plant Training').label).toBe('Across the platform')
    expect(statsScopeText('platform', undefined).description).toMatch(/^Platform-wide/)
  })
  it('claims no scope before the answer is in', () => {
    expect(statsScopeText(undefined, 'Riverside').label).toBe('')
  })
})
