import { describe, expect, it } from 'vitest'
import { chooseModule, historyMinutes, pickerModules, safetyControls, statusLabel, trainingHours } from '@/features/xr-training/lib/format'

const mods = Array.from({ length: 9 }, (_, i) => ({ id: `m${i}` }))

describe('xr-training formatting', () => {
  it('rounds training hours and floors history minutes', () => {
    expect(trainingHours(0)).toBe(0)
    expect(trainingHours(5399)).toBe(1)
    expect(trainingHours(5400)).toBe(2)
    expect(historyMinutes(119)).toBe(1)
    expect(historyMinutes(null)).toBe(0)
  })

  it('labels a missing status completed', () => {
    expect(statusLabel(undefined)).toBe('completed')
    expect(statusLabel('in_progress')).toBe('in progress')
  })

  it('shows the first six modules and appends a chosen one from further down', () => {
    expect(pickerModules(mods, 'm2').map((m) => m.id)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5'])
    expect(pickerModules(mods, 'm8').map((m) => m.id)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm8'])
    expect(pickerModules(mods, 'nope')).toHaveLength(6)
  })

  it('opens the requested module, and none for no id, an unknown id or "default"', () => {
    expect(chooseModule(mods, 'm7')?.id).toBe('m7')
    // Nothing is preselected: no module, no xr-content request, no 3D scene until the learner picks one.
    expect(chooseModule(mods, 'default')).toBeUndefined()
    expect(chooseModule(mods, null)).toBeUndefined()
    expect(chooseModule(mods, 'not-a-module')).toBeUndefined()
    expect(chooseModule([], 'm1')).toBeUndefined()
  })

  it('has the four safety controls of the spec', () => {
    expect(safetyControls.map((c) => [c.label, c.alertType, c.description])).toEqual([
      ['Emergency Stop', 'emergency', 'Emergency stop requested'],
      ['Request Help', 'help', 'Need assistance'],
      ['Equipment Issue', 'equipment', 'Equipment malfunction'],
      ['Safety Concern', 'general', 'General safety concern'],
    ])
  })
})
