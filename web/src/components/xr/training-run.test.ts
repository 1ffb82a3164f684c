import { describe, expect, it } from 'vitest'
import { activate, currentStep, decidedSafetyChecks, isFinished, newRun, passes, safetyScore, sessionMinutes, skip } from '@/components/xr/training-run'
import type { Scene } from '@/components/xr/types'

const scene: Scene = {
  id: 'lockout',
  title: 'Lockout',
  tradeIds: ['electrical'],
  environment: 'panel room',
  objects: [
    { id: 'ppe', label: 'PPE', shape: 'sphere', position: [0, 1, 0], rotation: [0, 0, 0], size: [0.1, 0, 0], color: '#ffffff' },
    { id: 'handle', label: 'Handle', shape: 'box', position: [0, 1, -1], rotation: [0, 0, 0], size: [0.1, 0.3, 0.1], color: '#ff0000' },
    { id: 'lock', label: 'Lock', shape: 'box', position: [1, 1, -1], rotation: [0, 0, 0], size: [0.1, 0.1, 0.1], color: '#ff0000' },
  ],
  steps: [
    { id: 'don-ppe', instruction: 'Wear PPE', target: 'ppe', action: 'grab', safetyCheckId: 'ppe-worn' },
    { id: 'open', instruction: 'Open the disconnect', target: 'handle', action: 'click' },
    { id: 'apply-lock', instruction: 'Apply the lock', target: 'lock', action: 'grab', safetyCheckId: 'locked' },
  ],
  safetyChecks: [
    { id: 'ppe-worn', description: 'PPE worn', weight: 1 },
    { id: 'locked', description: 'Lock applied', weight: 3 },
  ],
  passCriteria: { requiredSteps: ['don-ppe', 'open', 'apply-lock'], minSafetyScore: 80 },
}

const t0 = Date.UTC(2026, 0, 1, 12, 0, 0)

describe('training run', () => {
  it('completes the current step on its target with the step action, timestamp and sessionTime', () => {
    let run = newRun(scene, t0)
    expect(currentStep(scene, run)?.id).toBe('don-ppe')
    const r = activate(scene, run, 'ppe', 'mouse', t0 + 1500)
    run = r.run
    expect(r.completed?.id).toBe('don-ppe')
    expect(r.interaction).toEqual({
      action: 'grab',
      objectId: 'ppe',
      stepId: 'don-ppe',
      input: 'mouse',
      timestamp: '2026-01-01T12:00:01.500Z',
      sessionTime: 1500,
      seq: 0,
    })
    expect(currentStep(scene, run)?.id).toBe('open')
  })

  it('records a click on any other object as an inspection without completing a step', () => {
    const r = activate(scene, newRun(scene, t0), 'lock', 'ray', t0 + 10)
    expect(r.completed).toBeUndefined()
    expect(r.interaction).toMatchObject({ action: 'inspect', objectId: 'lock', seq: 0 })
    expect(r.interaction.stepId).toBeUndefined()
    expect(currentStep(scene, r.run)?.id).toBe('don-ppe')
    expect(r.run.interactions).toHaveLength(1)
  })

  it('scores 100 and passes when every step is done in order', () => {
    let run = newRun(scene, t0)
    for (const target of ['ppe', 'handle', 'lock']) run = activate(scene, run, target, 'keyboard', t0 + 1000).run
    expect(isFinished(scene, run)).toBe(true)
    expect(decidedSafetyChecks(scene, run)).toEqual([
      { id: 'ppe-worn', status: 'passed' },
      { id: 'locked', status: 'passed' },
    ])
    expect(safetyScore(scene, run)).toBe(100)
    expect(passes(scene, run)).toBe(true)
    expect(run.interactions.map((i) => i.seq)).toEqual([0, 1, 2])
  })

  it('a skipped safety check lowers the score by its weight and can fail the session', () => {
    let run = newRun(scene, t0)
    const s = skip(scene, run, 'keyboard', t0 + 200)
    run = s.run
    expect(s.interaction).toMatchObject({ action: 'skip', stepId: 'don-ppe', objectId: 'ppe' })
    expect(decidedSafetyChecks(scene, run)).toEqual([{ id: 'ppe-worn', status: 'skipped' }])
    run = activate(scene, run, 'handle', 'mouse', t0 + 300).run
    run = activate(scene, run, 'lock', 'mouse', t0 + 400).run
    expect(safetyScore(scene, run)).toBe(75)
    expect(passes(scene, run)).toBe(false)
  })

  it('leaves checks not yet reached out of the decided list', () => {
    const run = activate(scene, newRun(scene, t0), 'ppe', 'mouse', t0).run
    expect(decidedSafetyChecks(scene, run)).toEqual([{ id: 'ppe-worn', status: 'passed' }])
    expect(safetyScore(scene, run)).toBe(25)
  })

  it('skipping after the last step does nothing', () => {
    let run = newRun(scene, t0)
    for (let i = 0; i < 3; i++) run = skip(scene, run, 'keyboard', t0).run
    const after = skip(scene, run, 'keyboard', t0)
    expect(after.interaction).toBeUndefined()
    expect(after.run).toBe(run)
  })

  it('rounds minutes for the end toast', () => {
    expect(sessionMinutes(0)).toBe(0)
    expect(sessionMinutes(89_999)).toBe(1)
    expect(sessionMinutes(90_000)).toBe(2)
    expect(sessionMinutes(29 * 60_000)).toBe(29)
  })
})
