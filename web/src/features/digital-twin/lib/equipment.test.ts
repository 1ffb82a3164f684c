import { describe, expect, it } from 'vitest'
import {
  alertLabel,
  alertTone,
  cardReadings,
  daysUntil,
  errorMessage,
  formatReading,
  operatingHoursPercent,
  sensorLabel,
  sensorReadings,
  statusLabel,
  statusTone,
  syncLabel,
} from './equipment'

describe('statusLabel', () => {
  it.each([
    ['operational', 'Operational'],
    ['maintenance', 'Maintenance'],
    ['offline', 'Offline'],
    ['error', 'Error'],
    ['OPERATIONAL', 'Operational'],
    ['standby', 'Unknown'],
    ['', 'Unknown'],
    [undefined, 'Unknown'],
    [null, 'Unknown'],
    [42, 'Unknown'],
  ])('%s → %s', (value, label) => {
    expect(statusLabel(value)).toBe(label)
  })

  it('draws an unknown status muted, an error red', () => {
    expect(statusTone('rebooting')).toBe('muted')
    expect(statusTone('error')).toBe('bad')
    expect(statusTone('operational')).toBe('good')
  })
})

describe('alertLabel', () => {
  it.each([
    ['normal', 'Normal'],
    ['warning', 'Warning'],
    ['critical', 'Critical'],
    ['emergency', 'Emergency'],
    ['info', 'Unknown'],
    [undefined, 'Unknown'],
  ])('%s → %s', (value, label) => {
    expect(alertLabel(value)).toBe(label)
  })

  it('gives each level its own tone', () => {
    expect(['normal', 'warning', 'critical', 'emergency'].map(alertTone)).toEqual(['good', 'warn', 'bad', 'severe'])
  })
})

describe('syncLabel', () => {
  it.each([
    ['synced', 'Synced'],
    ['syncing', 'Syncing'],
    ['error', 'Error'],
    ['disconnected', 'Disconnected'],
    ['lost', 'Unknown'],
  ])('%s → %s', (value, label) => {
    expect(syncLabel(value)).toBe(label)
  })
})

describe('operatingHoursPercent', () => {
  it.each([
    [0, 0],
    [2_500, 25],
    [8_760, 87.6],
    [10_000, 100],
    [25_000, 100],
    [-5, 0],
    [Number.NaN, 0],
    [undefined, 0],
    ['500', 0],
  ])('%s h → %s %%', (hours, pct) => {
    expect(operatingHoursPercent(hours)).toBeCloseTo(pct)
  })
})

describe('sensorReadings', () => {
  const data = {
    temperature: 72.5,
    pressure: { value: 540, unit: 'kPa' },
    vibration: { value: 2.1 },
    supplyAirTemp: { value: 13.2, unit: '°C' },
    rpm: 1750,
    timestamp: '2026-01-01T00:00:00Z',
    note: 'not a reading',
  }

  it('keeps numbers and {value, unit} in order, skipping non-readings', () => {
    expect(sensorReadings(data)).toEqual([
      { key: 'temperature', label: 'Temperature', value: 72.5, unit: '°C' },
      { key: 'pressure', label: 'Pressure', value: 540, unit: 'kPa' },
      { key: 'vibration', label: 'Vibration', value: 2.1, unit: 'mm/s' },
      { key: 'supplyAirTemp', label: 'Supply Air Temp', value: 13.2, unit: '°C' },
      { key: 'rpm', label: 'RPM', value: 1750, unit: 'rpm' },
    ])
  })

  it('shows only the first 4 readings on a card', () => {
    expect(cardReadings(data).map((r) => r.key)).toEqual(['temperature', 'pressure', 'vibration', 'supplyAirTemp'])
  })

  it('shows all readings when there are fewer than 4', () => {
    expect(cardReadings({ a: 1, b: 2 })).toHaveLength(2)
    expect(cardReadings(undefined)).toEqual([])
    expect(cardReadings(null)).toEqual([])
  })
})

describe('formatting', () => {
  it('labels keys', () => {
    expect(sensorLabel('oil_level')).toBe('Oil Level')
    expect(sensorLabel('dcBusVoltage')).toBe('Dc Bus Voltage')
  })

  it('formats readings with units', () => {
    expect(formatReading(1780, 'rpm')).toBe('1,780 rpm')
    expect(formatReading(91.234, '%')).toBe('91.23%')
    expect(formatReading(3, '')).toBe('3')
  })

  it('counts days until a date', () => {
    const now = new Date('2026-03-01T12:00:00Z')
    expect(daysUntil('2026-03-11T12:00:00Z', now)).toBe(10)
    expect(daysUntil('2026-02-27T12:00:00Z', now)).toBe(-2)
    expect(daysUntil(undefined, now)).toBeNull()
    expect(daysUntil('soon', now)).toBeNull()
  })
})

describe('errorMessage', () => {
  it("shows the server's message of a 400", () => {
    expect(errorMessage(new Error('400: {"message":"registerCount must be 1–125"}'))).toBe('registerCount must be 1–125')
  })

  it('keeps a non-JSON body with its status', () => {
    expect(errorMessage(new Error('502: Bad Gateway'))).toBe('502: Bad Gateway')
  })

  it('passes other errors through', () => {
    expect(errorMessage(new Error('Failed to fetch'))).toBe('Failed to fetch')
    expect(errorMessage('x')).toBe('x')
  })
})
