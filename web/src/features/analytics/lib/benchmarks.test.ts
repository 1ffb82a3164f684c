import { describe, expect, it } from 'vitest'
import { benchmarkReference, type PeriodMetrics } from '@/content/analytics'
import { benchmarkRows, figureText, referenceSource } from './benchmarks'

const organisation = { learners: 3, hoursPerWeek: 2.5, averageSafety: 91.2, passRate: 80, modulesPerMonth: 1.4 }

describe('referenceSource', () => {
  it('gives a visitor outside an organisation the sample, whatever the query holds', () => {
    expect(referenceSource(false, { data: organisation, isError: false })).toEqual({ kind: 'sample', figures: benchmarkReference })
    expect(referenceSource(false, { isError: true }).kind).toBe('sample')
  })

  it("gives an organisation member their organisation's figures and how many learners they are over", () => {
    expect(referenceSource(true, { data: organisation, isError: false })).toEqual({
      kind: 'organisation',
      learners: 3,
      figures: { hoursPerWeek: 2.5, averageSafety: 91.2, passRate: 80, modulesPerMonth: 1.4 },
    })
  })

  it('keeps a figure no learner has as null', () => {
    const source = referenceSource(true, { data: { ...organisation, averageSafety: null, passRate: null }, isError: false })
    expect(source).toMatchObject({ figures: { averageSafety: null, passRate: null, hoursPerWeek: 2.5 } })
  })

  it('reads an organisation without a learner in the period as having no figures, not zeros', () => {
    const source = referenceSource(true, { data: { learners: 0, hoursPerWeek: 0, averageSafety: null, passRate: null, modulesPerMonth: 0 }, isError: false })
    expect(source).toEqual({ kind: 'organisation', learners: 0, figures: { hoursPerWeek: null, averageSafety: null, passRate: null, modulesPerMonth: null } })
  })

  it('says when the figures are on their way or failed, rather than falling back to the sample', () => {
    expect(referenceSource(true, { isError: false })).toEqual({ kind: 'loading' })
    expect(referenceSource(true, { isError: true })).toEqual({ kind: 'failed' })
  })
})

describe('benchmarkRows', () => {
  const metrics: PeriodMetrics = { sessions: 4, hours: 8, averageSafety: 88.5, modulesCompleted: 3, passRate: 75 }

  it("puts the learner's figures per week and per month beside the reference", () => {
    expect(benchmarkRows(metrics, '28d', { hoursPerWeek: 2.5, averageSafety: null, passRate: 80, modulesPerMonth: 1.4 })).toEqual([
      { metric: 'Hours / week', you: 2, reference: 2.5 },
      { metric: 'Safety %', you: 88.5, reference: null },
      { metric: 'Pass rate %', you: 75, reference: 80 },
      { metric: 'Modules / month', you: 3.2, reference: 1.4 },
    ])
  })

  it("keeps the learner's missing figures as null and has no reference without one", () => {
    const rows = benchmarkRows({ ...metrics, averageSafety: null, passRate: null }, '7d', null)
    expect(rows.map((r) => r.you)).toEqual([8, null, null, 12.9])
    expect(rows.every((r) => r.reference === null)).toBe(true)
  })
})

it('figureText shows a null as no data', () => {
  expect(figureText(null)).toBe('no data')
  expect(figureText(0)).toBe('0')
  expect(figureText(91.2)).toBe('91.2')
})
