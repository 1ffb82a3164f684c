import { describe, expect, it } from 'vitest'
import { demoStageIds, demoStages, tradeDemoItems, type DemoStageId } from '@/content/home'
import { completionRate, entryModuleId, isFirefox, nextStage, resolveTrade, stageStatus } from './trade-demo'

describe('tradeDemoItems', () => {
  it('holds the four trades of spec 000 §3', () => {
    expect(tradeDemoItems.map((t) => [t.id, t.difficulty, t.duration, t.modules, t.safetyScore])).toEqual([
      ['electrical', 'Advanced', '45 min', 12, 98],
      ['plumbing', 'Intermediate', '35 min', 8, 95],
      ['hvac', 'Advanced', '55 min', 15, 92],
      ['welding', 'Expert', '60 min', 18, 96],
    ])
  })

  it('has the five stages with their labels in order', () => {
    expect(demoStages.map((s) => [s.id, s.label])).toEqual([
      ['overview', 'Training Overview'],
      ['setup', 'VR Environment Setup'],
      ['hands_on', 'Hands-On Practice'],
      ['assessment', 'Skills Assessment'],
      ['completion', 'Certification'],
    ])
  })
})

describe('completionRate', () => {
  it.each<[DemoStageId, number]>([
    ['overview', 20],
    ['setup', 40],
    ['hands_on', 60],
    ['assessment', 80],
    ['completion', 100],
  ])('%s → %i%%', (stage, want) => {
    expect(completionRate(stage)).toBe(want)
  })
})

describe('stageStatus', () => {
  it('marks earlier stages done, the current one current and later ones upcoming', () => {
    expect(demoStageIds.map((s) => stageStatus(s, 'hands_on'))).toEqual(['done', 'done', 'current', 'upcoming', 'upcoming'])
    expect(demoStageIds.map((s) => stageStatus(s, 'overview'))).toEqual(['current', 'upcoming', 'upcoming', 'upcoming', 'upcoming'])
    expect(demoStageIds.map((s) => stageStatus(s, 'completion'))).toEqual(['done', 'done', 'done', 'done', 'current'])
  })
})

describe('nextStage', () => {
  it('walks the stages in order and stops after the last', () => {
    expect(nextStage('overview')).toBe('setup')
    expect(nextStage('assessment')).toBe('completion')
    expect(nextStage('completion')).toBeNull()
  })
})

describe('resolveTrade', () => {
  it('finds a trade and falls back to electrical', () => {
    expect(resolveTrade('welding').difficulty).toBe('Expert')
    expect(resolveTrade('astronomy').id).toBe('electrical')
    expect(resolveTrade(undefined).id).toBe('electrical')
  })
})

describe('isFirefox', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', true],
    ['Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0', true],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36', false],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', false],
    ['', false],
  ])('%s → %s', (ua, want) => {
    expect(isFirefox(ua)).toBe(want)
  })
})

describe('entryModuleId', () => {
  const hvac = resolveTrade('hvac')
  it('picks the trade’s first module without prerequisites', () => {
    const modules = [
      { id: 'electrical-a', tradeId: 'electrical', prerequisites: [] },
      { id: 'hvac-advanced', tradeId: 'hvac', prerequisites: ['hvac-basics'] },
      { id: 'hvac-basics', tradeId: 'hvac', prerequisites: [] },
    ]
    expect(entryModuleId(modules, hvac)).toBe('hvac-basics')
  })
  it('takes the trade’s first module when every one has prerequisites', () => {
    expect(entryModuleId([{ id: 'hvac-x', tradeId: 'hvac', prerequisites: ['y'] }], hvac)).toBe('hvac-x')
  })
  it('falls back to the seeded default before the catalog answers or when it lacks the trade', () => {
    expect(entryModuleId(undefined, hvac)).toBe('hvac-refrigeration-cycle')
    expect(entryModuleId([{ id: 'welding-a', tradeId: 'welding' }], hvac)).toBe('hvac-refrigeration-cycle')
  })
})
