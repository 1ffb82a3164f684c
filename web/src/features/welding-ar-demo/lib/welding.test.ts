import { describe, expect, it } from 'vitest'
import { METRICS, metricKeys, type MetricKey } from '@/lib/weld'
import { drift, formatDuration, initialMetrics, metricColour, qualityLabel, qualityScore, weldingModuleId } from '@/features/welding-ar-demo/lib/welding'
import type { Step } from '@/components/xr/types'
import { checkReadyInMs, weldInteractions } from '@/features/welding-ar-demo/lib/record'

describe('qualityScore (spec 001 §9)', () => {
  it.each([
    // accuracy, penetration, travelSpeed → score
    [90, 3, 8, (90 + 30 + 100) / 3],
    [100, 10, 8, 100],
    [100, 15, 8, 100], // penetration × 10 capped at 100
    [85, 2.5, 6, (85 + 25 + 80) / 3],
    [60, 4, 11, (60 + 40 + 70) / 3],
    [0, 0, 20, (0 + 0 - 20) / 3], // the formula has no floor
    [92.5, 3.25, 8, 75],
  ])('accuracy %d, penetration %d, travel %d', (accuracy, penetration, travelSpeed, want) => {
    expect(qualityScore({ accuracy, penetration, travelSpeed })).toBe(Math.round(want * 10) / 10)
  })
})

describe('qualityLabel (spec 001 §5)', () => {
  it.each([
    [100, 'Excellent'],
    [90, 'Excellent'],
    [89.9, 'Good'],
    [80, 'Good'],
    [79.9, 'Fair'],
    [70, 'Fair'],
    [69.9, 'Needs Improvement'],
    [0, 'Needs Improvement'],
  ])('%d → %s', (score, label) => expect(qualityLabel(score)).toBe(label))
})

describe('metricColour (spec 001 §5)', () => {
  it.each<[MetricKey, number, string]>([
    ['temperature', 150, 'green'],
    ['temperature', 200, 'green'],
    ['temperature', 120, 'yellow'], // 80% of 150
    ['temperature', 119.9, 'red'],
    ['temperature', 240, 'yellow'], // 120% of 200
    ['temperature', 240.1, 'red'],
    ['voltage', 22, 'green'],
    ['voltage', 16, 'yellow'],
    ['voltage', 30, 'yellow'],
    ['voltage', 31, 'red'],
    ['amperage', 150, 'green'],
    ['amperage', 112, 'yellow'],
    ['amperage', 111, 'red'],
    ['amperage', 192, 'yellow'],
    ['travelSpeed', 5, 'yellow'],
    ['travelSpeed', 4.7, 'red'],
    ['penetration', 3, 'green'],
    ['penetration', 4.8, 'yellow'],
    ['penetration', 1.9, 'red'],
    ['accuracy', 85, 'green'],
    ['accuracy', 70, 'yellow'],
    ['accuracy', 60, 'red'],
    ['beadWidth', 7, 'neutral'],
    ['gasPressure', 20, 'neutral'],
  ])('%s %d → %s', (k, v, colour) => expect(metricColour(k, v)).toBe(colour))
})

describe('drift', () => {
  it('starts every banded metric green', () => {
    const m = initialMetrics()
    for (const k of metricKeys) expect(['green', 'neutral']).toContain(metricColour(k, m[k]))
  })
  it('stays put with a centred random number at the band centre', () => {
    expect(drift(initialMetrics(), () => 0.5)).toEqual(initialMetrics())
  })
  it('moves every metric and keeps it within its range, however long it runs', () => {
    let m = initialMetrics()
    const seq = [0.999, 0, 0.999, 0.999, 0.2]
    let i = 0
    for (let t = 0; t < 2000; t++) {
      const next = drift(m, () => seq[i++ % seq.length])
      for (const k of metricKeys) {
        expect(next[k]).toBeGreaterThanOrEqual(METRICS[k].range[0])
        expect(next[k]).toBeLessThanOrEqual(METRICS[k].range[1])
      }
      m = next
    }
  })
  it('a steady upward push takes temperature from green through yellow to red', () => {
    let m = initialMetrics()
    const seen = new Set<string>()
    for (let t = 0; t < 40; t++) {
      m = drift(m, () => 0.999)
      seen.add(metricColour('temperature', m.temperature))
    }
    expect([...seen]).toEqual(['green', 'yellow', 'red'])
    expect(m.temperature).toBeLessThanOrEqual(250)
  })
})

it('formatDuration', () => {
  expect(formatDuration(0)).toBe('0:00')
  expect(formatDuration(65.7)).toBe('1:05')
  expect(formatDuration(600)).toBe('10:00')
})

it('weldingModuleId picks the technique’s module, else the first welding module', () => {
  const all = [
    { id: 'electrical-loto', tradeId: 'electrical' },
    { id: 'welding-shop-safety', tradeId: 'welding' },
    { id: 'welding-joint-preparation', tradeId: 'welding' },
    { id: 'welding-smaw-fillet', tradeId: 'welding' },
  ]
  expect(weldingModuleId('SMAW', all)).toBe('welding-smaw-fillet')
  expect(weldingModuleId('GMAW', all)).toBe('welding-joint-preparation')
  expect(weldingModuleId('FCAW', all)).toBe('welding-shop-safety')
  expect(weldingModuleId('GMAW', [all[0]])).toBeUndefined()
})

const helmet: Step = { id: 'wear-eyes', instruction: 'Put on the helmet.', target: 'helmet', action: 'grab', safetyCheckId: 'eye-face-ppe', minDurationMs: 3_000 }
const gloves: Step = { id: 'wear-gloves', instruction: 'Put on gloves.', target: 'gloves', action: 'grab', safetyCheckId: 'hand-ppe', minDurationMs: 2_000 }

it('weldInteractions records the ticked checks as scene steps at their session time, then the weld', () => {
  const m = initialMetrics()
  const out = weldInteractions(
    [{ step: helmet, at: 5_000 }],
    { technique: 'GMAW', material: 'aluminum', position: '2G' },
    { metrics: m, qualityScore: 75, qualityLabel: 'Fair', duration: 30 },
    1_000,
    41_000,
  )
  expect(out).toHaveLength(2)
  expect(out[0]).toMatchObject({ action: 'grab', objectId: 'helmet', stepId: 'wear-eyes', seq: 0, sessionTime: 4_000 })
  expect(out[0].timestamp).toBe(new Date(5_000).toISOString())
  expect(out[1]).toMatchObject({
    action: 'weld',
    seq: 1,
    sessionTime: 40_000,
    technique: 'GMAW',
    material: 'aluminum',
    position: '2G',
    qualityScore: 75,
    qualityLabel: 'Fair',
    weldSeconds: 30,
    metrics: m,
  })
  // The server refuses an interaction over 2048 bytes.
  expect(JSON.stringify(out[1]).length).toBeLessThan(2048)
})

it('checkReadyInMs holds each check for its minimum time after the one before it, or after the start', () => {
  const steps = [helmet, gloves]
  expect(checkReadyInMs(steps, [], 1_000, 1_000)).toBe(3_000)
  expect(checkReadyInMs(steps, [], 1_000, 3_500)).toBe(500)
  expect(checkReadyInMs(steps, [], 1_000, 9_000)).toBe(0)
  // The second counts from when the first was ticked, not from the start.
  expect(checkReadyInMs(steps, [{ step: helmet, at: 9_000 }], 1_000, 9_500)).toBe(1_500)
  expect(checkReadyInMs(steps, [{ step: helmet, at: 9_000 }], 1_000, 11_000)).toBe(0)
  // A step without a minimum opens at once; past the last there is nothing to wait for.
  expect(checkReadyInMs([{ ...helmet, minDurationMs: undefined }], [], 1_000, 1_000)).toBe(0)
  expect(checkReadyInMs(steps, [{ step: helmet, at: 9_000 }, { step: gloves, at: 12_000 }], 1_000, 12_000)).toBe(0)
})
