import { describe, expect, it } from 'vitest'
import { formatPercent, initialStats, tickStats, type DemoStats } from './stats'

const always = (r: number) => () => r
/** A source returning the given numbers in turn. */
const sequence = (...rs: number[]) => {
  let i = 0
  return () => rs[i++ % rs.length]
}

describe('initialStats', () => {
  it('starts from the constants of seed 001 §9', () => {
    expect(initialStats()).toEqual({ viewers: 847, activeUsers: 23, completionRate: 94, averageScore: 89, safetyIncidents: 0 })
  })
})

describe('tickStats', () => {
  const cases: { name: string; r: number; viewers: number }[] = [
    { name: 'low draw loses a viewer', r: 0, viewers: 846 },
    { name: 'middle draw keeps them', r: 0.5, viewers: 847 },
    { name: 'high draw adds one', r: 0.999, viewers: 848 },
  ]
  for (const c of cases) {
    it(c.name, () => {
      expect(tickStats(initialStats(), always(c.r)).viewers).toBe(c.viewers)
    })
  }

  it('moves viewers by at most one per tick over many ticks', () => {
    let s = initialStats()
    let seed = 7
    const lcg = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    for (let i = 0; i < 1000; i++) {
      const next = tickStats(s, lcg)
      expect(Math.abs(next.viewers - s.viewers)).toBeLessThanOrEqual(1)
      expect(next.completionRate).toBeLessThanOrEqual(100)
      expect(next.averageScore).toBeLessThanOrEqual(100)
      s = next
    }
  })

  it('never lets viewers go below zero', () => {
    expect(tickStats({ ...initialStats(), viewers: 0 }, always(0)).viewers).toBe(0)
  })

  it('caps completion rate and average score at 100', () => {
    const s: DemoStats = { ...initialStats(), completionRate: 99.95, averageScore: 100 }
    const next = tickStats(s, always(0.999))
    expect(next.completionRate).toBe(100)
    expect(next.averageScore).toBe(100)
  })

  it('drifts the percentages by at most 0.2 points', () => {
    const up = tickStats(initialStats(), sequence(0.5, 0.999, 0.999))
    expect(up.completionRate).toBeCloseTo(94.2, 5)
    expect(up.averageScore).toBeCloseTo(89.2, 5)
    const down = tickStats(initialStats(), sequence(0.5, 0, 0))
    expect(down.completionRate).toBeCloseTo(93.8, 5)
    expect(down.averageScore).toBeCloseTo(88.8, 5)
  })

  it('holds active trainees and safety incidents', () => {
    const next = tickStats(initialStats(), always(0.3))
    expect(next.activeUsers).toBe(23)
    expect(next.safetyIncidents).toBe(0)
  })

  it('does not change its input', () => {
    const s = initialStats()
    tickStats(s, always(0.999))
    expect(s).toEqual(initialStats())
  })
})

describe('formatPercent', () => {
  it('rounds to whole percent', () => {
    expect(formatPercent(94.2)).toBe('94%')
    expect(formatPercent(99.95)).toBe('100%')
  })
})
