import { describe, expect, it } from 'vitest'
import { formatCount, formatSafetyScore } from './dashboard-stats'

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
