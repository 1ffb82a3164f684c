import { describe, expect, it } from 'vitest'
import { GENERIC_PROFILE, sensorProfile, simulateSensorData } from './simulate'

const now = new Date('2026-05-01T10:00:00Z')
const keys = ['temperature', 'pressure', 'vibration', 'current', 'voltage', 'rpm', 'efficiency'] as const

describe('simulateSensorData', () => {
  it('posts all seven readings and the timestamp', () => {
    const data = simulateSensorData('pump', () => 0.5, now)
    expect(Object.keys(data).sort()).toEqual([...keys, 'timestamp'].sort())
    expect(data.timestamp).toBe('2026-05-01T10:00:00.000Z')
    for (const k of keys) expect(Number.isFinite(data[k])).toBe(true)
  })

  it.each([
    ['booster-pump', { rpm: [1740, 1780], pressure: [450, 620] }],
    ['welding-power-source', { voltage: [22, 28], rpm: [0, 0] }],
    ['panelboard', { rpm: [0, 0], voltage: [475, 485] }],
    ['solar-inverter', { efficiency: [96, 98.5] }],
    ['chiller', { temperature: [6, 8] }],
    ['rooftop-hvac', { temperature: [12, 16] }],
    ['wind-turbine-nacelle', { voltage: [680, 700] }],
    ['transformer', { temperature: [55, 75] }],
    ['elevator-drive', { rpm: [900, 1750] }],
  ] as const)('%s stays inside its type’s band at both ends of the draw', (type, bands) => {
    for (const r of [0, 0.999999]) {
      const data = simulateSensorData(type, () => r, now)
      for (const [k, [min, max]] of Object.entries(bands)) {
        const v = data[k as (typeof keys)[number]]
        expect(v).toBeGreaterThanOrEqual(min)
        expect(v).toBeLessThanOrEqual(max)
      }
    }
  })

  it('keeps every reading plausible for any type: non-negative, efficiency a percentage', () => {
    for (const type of ['pump', 'welder', 'mystery-box', 'transformer']) {
      for (let i = 0; i < 50; i++) {
        const data = simulateSensorData(type, Math.random, now)
        for (const k of keys) expect(data[k]).toBeGreaterThanOrEqual(0)
        expect(data.efficiency).toBeLessThanOrEqual(100)
      }
    }
  })

  it('matches on the name when the type is vague', () => {
    expect(sensorProfile('equipment', 'Rooftop HVAC Unit RTU-1')).not.toBe(GENERIC_PROFILE)
    expect(sensorProfile('thing')).toBe(GENERIC_PROFILE)
  })

  it('varies with the random source', () => {
    expect(simulateSensorData('pump', () => 0.1, now).current).not.toBe(simulateSensorData('pump', () => 0.9, now).current)
  })
})

// The server's warning thresholds for the seeded types (internal/twin/rules.go):
// an ordinary Update Sensors must not raise an alert by itself.
const warningLimits: [type: string, sensor: (typeof keys)[number], comparison: 'above' | 'below', limit: number][] = [
  ['panelboard', 'temperature', 'above', 50],
  ['panelboard', 'current', 'above', 200],
  ['panelboard', 'voltage', 'below', 456],
  ['panelboard', 'voltage', 'above', 504],
  ['transformer', 'temperature', 'above', 85],
  ['transformer', 'current', 'above', 450],
  ['transformer', 'voltage', 'below', 456],
  ['rooftop-hvac-unit', 'temperature', 'above', 20],
  ['rooftop-hvac-unit', 'pressure', 'above', 1500],
  ['rooftop-hvac-unit', 'vibration', 'above', 4.5],
  ['rooftop-hvac-unit', 'current', 'above', 55],
  ['chiller', 'temperature', 'above', 10],
  ['chiller', 'temperature', 'below', 4],
  ['chiller', 'pressure', 'above', 900],
  ['chiller', 'vibration', 'above', 4.5],
  ['chiller', 'current', 'above', 300],
  ['chiller', 'efficiency', 'below', 80],
  ['booster-pump', 'pressure', 'above', 800],
  ['booster-pump', 'pressure', 'below', 350],
  ['booster-pump', 'vibration', 'above', 4.5],
  ['booster-pump', 'current', 'above', 65],
  ['booster-pump', 'temperature', 'above', 70],
  ['welding-power-source', 'temperature', 'above', 75],
  ['welding-power-source', 'current', 'above', 300],
  ['welding-power-source', 'voltage', 'above', 35],
  ['solar-inverter', 'temperature', 'above', 65],
  ['solar-inverter', 'voltage', 'above', 510],
  ['solar-inverter', 'voltage', 'below', 440],
  ['solar-inverter', 'efficiency', 'below', 94],
  ['wind-turbine-nacelle', 'temperature', 'above', 80],
  ['wind-turbine-nacelle', 'vibration', 'above', 6],
  ['wind-turbine-nacelle', 'rpm', 'above', 1800],
  ['wind-turbine-nacelle', 'pressure', 'below', 150],
  ['elevator-drive', 'temperature', 'above', 70],
  ['elevator-drive', 'vibration', 'above', 4.5],
  ['elevator-drive', 'current', 'above', 75],
  ['elevator-drive', 'rpm', 'above', 1850],
]

describe('simulated readings against the alert rules', () => {
  it.each(warningLimits)('%s %s stays on the safe side of %s %s', (type, sensor, comparison, limit) => {
    for (const r of [0, 0.5, 0.999999]) {
      const v = simulateSensorData(type, () => r, now)[sensor]
      if (comparison === 'above') expect(v).toBeLessThanOrEqual(limit)
      else expect(v).toBeGreaterThanOrEqual(limit)
    }
  })
})
