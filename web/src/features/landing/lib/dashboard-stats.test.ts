import { describe, expect, it } from 'vitest'
import { formatCount, formatSafetyScore, normalizeDashboardStats } from './dashboard-stats'

describe('normalizeDashboardStats', () => {
  it('keeps the numbers the server sends', () => {
    expect(normalizeDashboardStats({ activeLearners: 3, totalCertifications: 2, totalXrSessions: 7, averageSafetyScore: 83.6 })).toEqual({
      activeLearners: 3,
      totalCertifications: 2,
      totalXrSessions: 7,
      averageSafetyScore: 83.6,
    })
  })

  it.each([
    ['an empty object', {}],
    ['null', null],
    ['a list', [1, 2]],
    ['strings and NaN', { activeLearners: '3', totalCertifications: null, totalXrSessions: Number.NaN, averageSafetyScore: 'high' }],
  ])('counts missing or wrong values in %s as 0', (_, raw) => {
    expect(normalizeDashboardStats(raw)).toEqual({ activeLearners: 0, totalCertifications: 0, totalXrSessions: 0, averageSafetyScore: 0 })
  })
})

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
