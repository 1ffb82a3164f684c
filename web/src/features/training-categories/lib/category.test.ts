import { describe, expect, it } from 'vitest'
import type { Trade, TrainingModule as CatalogModule } from '@/api/catalog'
import { categoryDescriptions, groupByTrade } from './category'
import { trainingCategories } from '@/content/navigation'

const mod = (id: string, tradeId: string, categories: string[]): CatalogModule => ({
  id,
  tradeId,
  title: id,
  description: '',
  difficulty: 'beginner',
  estimatedDuration: 30,
  learningObjectives: [],
  safetyPoints: [],
  prerequisites: [],
  categories,
})
const trade = (id: string): Trade => ({ id, name: id.toUpperCase(), description: '', certifications: [`${id} cert`] })

describe('groupByTrade', () => {
  const trades = [trade('electrical'), trade('hvac'), trade('welding')]
  const modules = [
    mod('h1', 'hvac', ['safety']),
    mod('e1', 'electrical', ['safety', 'technical']),
    mod('e2', 'electrical', ['technical']),
    mod('x1', 'carpentry', ['safety']),
  ]

  it('groups the category modules by trade in catalog order, skipping empty trades', () => {
    const groups = groupByTrade(modules, trades, 'safety')
    expect(groups.map((g) => [g.trade.id, g.modules.map((m) => m.id)])).toEqual([
      ['electrical', ['e1']],
      ['hvac', ['h1']],
      ['carpentry', ['x1']],
    ])
    expect(groups[0].trade.certifications).toEqual(['electrical cert'])
  })

  it('is empty for a category without modules', () => {
    expect(groupByTrade(modules, trades, 'teamwork')).toEqual([])
  })
})

it('describes every category of the navigation', () => {
  for (const c of trainingCategories) expect(categoryDescriptions[c.slug]).toBeTruthy()
})
