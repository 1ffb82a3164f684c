import { describe, expect, it } from 'vitest'
import type { TrainingModule as CatalogModule } from '@/api/catalog'
import { industryModules, prerequisiteTitles, summarize } from './industry'

const mod = (id: string, tradeId: string, difficulty: string, estimatedDuration: number, prerequisites: string[] = []): CatalogModule => ({
  id,
  tradeId,
  title: id.toUpperCase(),
  description: '',
  difficulty,
  estimatedDuration,
  learningObjectives: [],
  safetyPoints: [],
  prerequisites,
  categories: [],
})

const catalog = [
  mod('e1', 'electrical', 'beginner', 30),
  mod('h1', 'hvac', 'beginner', 40),
  mod('e2', 'electrical', 'intermediate', 45, ['e1']),
  mod('e3', 'electrical', 'advanced', 60, ['e2', 'gone']),
]

describe('industry pages', () => {
  it("keeps the trade's modules in catalog order", () => {
    expect(industryModules(catalog, 'electrical').map((m) => m.id)).toEqual(['e1', 'e2', 'e3'])
    expect(industryModules(catalog, 'welding')).toEqual([])
  })

  it('filters by difficulty', () => {
    expect(industryModules(catalog, 'electrical', 'intermediate').map((m) => m.id)).toEqual(['e2'])
  })

  it('sums durations and counts difficulties', () => {
    expect(summarize(industryModules(catalog, 'electrical'))).toEqual({
      modules: 3,
      totalMinutes: 135,
      byDifficulty: { beginner: 1, intermediate: 1, advanced: 1 },
    })
  })

  it('names the prerequisites it knows', () => {
    expect(prerequisiteTitles(catalog[3], catalog)).toEqual(['E2'])
  })
})
