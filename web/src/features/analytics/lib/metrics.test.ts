import { describe, expect, it } from 'vitest'
import { bucketize, filterByPeriod, insights, learnerLevel, summarize, tradeProgress, type SessionRecord } from './metrics'

const now = new Date('2026-11-23T12:00:00Z')

function s(daysAgo: number, over: Partial<SessionRecord> = {}): SessionRecord {
  return {
    moduleId: 'm1',
    moduleTitle: 'Lockout/Tagout',
    sessionType: 'desktop',
    startedAt: new Date(now.getTime() - daysAgo * 86_400_000).toISOString(),
    duration: 600,
    completionStatus: 'completed',
    safetyScore: 80,
    outcome: 'passed',
    ...over,
  }
}

describe('filterByPeriod', () => {
  const sessions = [s(0.5), s(6.9), s(7.5), s(27), s(29), s(89), s(91), s(364), s(366), s(-1)]
  it.each([
    ['7d', 2],
    ['28d', 4],
    ['90d', 6],
    ['1y', 8],
  ] as const)('%s keeps %i sessions', (period, n) => {
    expect(filterByPeriod(sessions, period, now)).toHaveLength(n)
  })
})

describe('summarize', () => {
  it('counts ended sessions, hours, scored average, distinct passed modules and pass rate', () => {
    const got = summarize([
      s(1, { safetyScore: 90 }),
      s(2, { safetyScore: 70, outcome: 'failed' }),
      s(3, { moduleId: 'm2', safetyScore: null }),
      s(4, { completionStatus: 'in_progress', outcome: '', safetyScore: null, duration: 1200 }),
    ])
    expect(got).toEqual({ sessions: 3, hours: 0.8, averageSafety: 80, modulesCompleted: 2, passRate: 67 })
  })
  it('has no averages without data', () => {
    expect(summarize([])).toEqual({ sessions: 0, hours: 0, averageSafety: null, modulesCompleted: 0, passRate: null })
  })
})

describe('bucketize', () => {
  it('7d has 7 daily buckets ending today', () => {
    const b = bucketize([s(0.1), s(0.2), s(1.5)], '7d', now)
    expect(b).toHaveLength(7)
    expect(b[6]).toMatchObject({ label: 'Mon', sessions: 2, minutes: 20, safety: 80 })
    expect(b[5]!.sessions).toBe(1)
  })
  it('28d has 4 weeks, 90d 13 weeks and 1y 12 months', () => {
    expect(bucketize([], '28d', now).map((p) => p.label)).toEqual(['Week 1', 'Week 2', 'Week 3', 'Week 4'])
    expect(bucketize([], '90d', now).map((p) => p.label).at(-1)).toBe('Week 13')
    const year = bucketize([s(3)], '1y', now)
    expect(year).toHaveLength(12)
    expect(year[11]).toMatchObject({ label: 'Nov', sessions: 1 })
    expect(year[0]!.label).toBe('Dec')
  })
})

describe('learnerLevel and insights', () => {
  it('levels up every 500 XP', () => {
    expect(learnerLevel([])).toMatchObject({ level: 1, title: 'Newcomer', xp: 0, toNext: 500 })
    const many = Array.from({ length: 5 }, (_, i) => s(i, { moduleId: `m${i}` }))
    // 5 passed modules (500) + 5 sessions (50) + 50 minutes.
    expect(learnerLevel(many)).toMatchObject({ level: 2, title: 'Apprentice', xp: 600 })
  })
  it('names the trend, the hardest module, the main mode and refreshers due', () => {
    const got = insights([s(4, { safetyScore: 60 }), s(3, { safetyScore: 70, outcome: 'failed' }), s(2, { safetyScore: 90 }), s(1, { safetyScore: 100 })], 2)
    expect(got[0]).toContain('improving')
    expect(got[0]).toContain('95%')
    expect(got[1]).toContain('Lockout/Tagout is your hardest module so far: 1 of 4')
    expect(got[2]).toContain('DESKTOP')
    expect(got[3]).toContain('2 modules are due')
  })
})

describe('tradeProgress', () => {
  it('reports the trades trained in, passed modules over catalog size', () => {
    const modules = [
      { id: 'm1', tradeId: 'electrical' },
      { id: 'm2', tradeId: 'electrical' },
      { id: 'm3', tradeId: 'electrical' },
      { id: 'p1', tradeId: 'plumbing' },
      { id: 'h1', tradeId: 'hvac' },
    ]
    const got = tradeProgress([s(1), s(2, { moduleId: 'p1', outcome: 'failed' })], modules, (id) => id.toUpperCase())
    expect(got).toEqual([
      { trade: 'ELECTRICAL', percent: 33 },
      { trade: 'PLUMBING', percent: 0 },
    ])
  })
})
