import { describe, expect, it } from 'vitest'
import { sampleHubModules } from '@/content/learning-hub'
import {
  categoryOfDifficulty,
  displayState,
  filterByCategory,
  hubModulesFromSessions,
  journeySummary,
  nextModules,
  pathwaysFor,
  type CatalogModule,
  type SessionRecord,
} from './progress'

describe('displayState', () => {
  it.each([
    [{ completed: true, locked: false, progress: 100 }, 'completed'],
    [{ completed: true, locked: true, progress: 100 }, 'completed'],
    [{ completed: false, locked: false, progress: 40 }, 'in-progress'],
    [{ completed: false, locked: true, progress: 10 }, 'in-progress'],
    [{ completed: false, locked: true, progress: 0 }, 'locked'],
    [{ completed: false, locked: false, progress: 0 }, 'not-started'],
  ] as const)('%j is %s', (m, want) => {
    expect(displayState(m)).toBe(want)
  })

  it('the sample modules show all four states', () => {
    expect(new Set(sampleHubModules.map(displayState))).toEqual(new Set(['completed', 'in-progress', 'not-started', 'locked']))
  })
})

describe('filterByCategory', () => {
  it('all keeps the 8 sample modules; each category keeps its own', () => {
    expect(filterByCategory(sampleHubModules, 'all')).toHaveLength(8)
    for (const c of ['essential', 'advanced', 'specialized'] as const) {
      const kept = filterByCategory(sampleHubModules, c)
      expect(kept.length).toBeGreaterThan(0)
      expect(kept.every((m) => m.category === c)).toBe(true)
    }
  })
})

const catalog: CatalogModule[] = [
  { id: 'a', tradeId: 'electrical', title: 'A', difficulty: 'beginner', estimatedDuration: 20, prerequisites: [], learningObjectives: ['x'], categories: [] },
  { id: 'b', tradeId: 'electrical', title: 'B', difficulty: 'beginner', estimatedDuration: 40, prerequisites: ['a'], learningObjectives: [], categories: [] },
  { id: 'c', tradeId: 'electrical', title: 'C', difficulty: 'intermediate', estimatedDuration: 30, prerequisites: ['b'], learningObjectives: [], categories: [] },
  { id: 'd', tradeId: 'electrical', title: 'D', difficulty: 'advanced', estimatedDuration: 60, prerequisites: ['a', 'c'], learningObjectives: [], categories: [] },
]

function session(moduleId: string, duration: number, outcome: string, safetyScore: number | null = null): SessionRecord {
  return { moduleId, sessionType: 'desktop', startedAt: '2026-11-20T10:00:00Z', duration, completionStatus: 'completed', safetyScore, outcome }
}

describe('hubModulesFromSessions', () => {
  it('derives the four states from passed sessions, time spent and prerequisites', () => {
    const mods = hubModulesFromSessions(catalog, [session('a', 900, 'passed', 95), session('b', 1200, 'failed')])
    expect(mods.map(displayState)).toEqual(['completed', 'in-progress', 'locked', 'locked'])
    expect(mods[0]).toMatchObject({ progress: 100, badgeEarned: true, category: 'essential', skills: ['x'] })
    // 1200 s of a 40-minute module is half of it.
    expect(mods[1]!.progress).toBe(50)
    expect(mods[2]!.category).toBe('specialized')
    expect(mods[3]!.category).toBe('advanced')
  })

  it('never shows an unpassed module as 100% and earns no badge below a 90 safety score', () => {
    const mods = hubModulesFromSessions(catalog, [session('a', 5000, 'failed'), session('a', 60, 'passed', 80)])
    expect(mods[0]).toMatchObject({ completed: true, badgeEarned: false })
    const unpassed = hubModulesFromSessions(catalog, [session('b', 99999, 'failed')])
    expect(unpassed[1]!.progress).toBe(95)
  })
})

describe('journeySummary and pathways', () => {
  it('summarises the sample modules', () => {
    expect(journeySummary(sampleHubModules)).toEqual({ completed: 2, inProgress: 2, total: 8, minutesCompleted: 55, badges: 1, percent: 25 })
  })

  it('builds three pathways with real completion', () => {
    const mods = hubModulesFromSessions(catalog, [session('a', 900, 'passed')])
    const paths = pathwaysFor('Electrical', mods)
    expect(paths.map((p) => [p.name, p.modules, p.completion, p.estimatedTime])).toEqual([
      ['Apprentice Electrical', 2, 50, 1],
      ['Journeyman Electrical', 1, 0, 0.5],
      ['Master Electrical', 1, 0, 1],
    ])
  })

  it('offers unlocked, unfinished modules, in-progress first', () => {
    const mods = hubModulesFromSessions(catalog, [session('a', 900, 'passed'), session('b', 60, 'failed')])
    expect(nextModules(mods).map((m) => m.id)).toEqual(['b'])
    expect(categoryOfDifficulty('Intermediate')).toBe('specialized')
  })
})
