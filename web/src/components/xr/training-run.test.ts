import { describe, expect, it } from 'vitest'
import { activate, currentStep, decidedSafetyChecks, isFinished, newRun, passes, safetyScore, sessionMinutes, skip, stepReadyInMs } from '@/components/xr/training-run'
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

  it('never records a sessionTime smaller than the one before, even if the clock is set back', () => {
    let run = activate(scene, newRun(scene, t0), 'lock', 'mouse', t0 + 5000).run
    const r = activate(scene, run, 'handle', 'mouse', t0 + 4000)
    run = r.run
    expect(run.interactions.map((i) => i.sessionTime)).toEqual([5000, 5000])
  })

  it('rounds minutes for the end toast', () => {
    expect(sessionMinutes(0)).toBe(0)
    expect(sessionMinutes(89_999)).toBe(1)
    expect(sessionMinutes(90_000)).toBe(2)
    expect(sessionMinutes(29 * 60_000)).toBe(29)
  })
})

describe('step pacing (internal/training Verify)', () => {
  // Minimum durations as the server's scene data gives them: 3 s for a safety check, 1.5 s for a click.
  const paced: Scene = { ...scene, steps: scene.steps.map((st) => ({ ...st, minDurationMs: st.safetyCheckId ? 3000 : 1500 })) }

  it("does not complete a step before its minimum time, and records the early try as an inspection", () => {
    let run = newRun(paced, t0)
    expect(stepReadyInMs(paced, run, t0 + 1000)).toBe(2000)
    const early = activate(paced, run, 'ppe', 'mouse', t0 + 1000)
    expect(early.completed).toBeUndefined()
    expect(early.tooEarlyMs).toBe(2000)
    expect(early.interaction).toMatchObject({ action: 'inspect', objectId: 'ppe', sessionTime: 1000 })
    expect(early.interaction.stepId).toBeUndefined()
    run = early.run
    expect(currentStep(paced, run)?.id).toBe('don-ppe')

    // At the minimum, measured from the start, the step completes.
    expect(stepReadyInMs(paced, run, t0 + 3000)).toBe(0)
    const done = activate(paced, run, 'ppe', 'mouse', t0 + 3000)
    expect(done.completed?.id).toBe('don-ppe')
    expect(done.tooEarlyMs).toBeUndefined()
    // The next step is timed from this one's completion, not from the start.
    expect(stepReadyInMs(paced, done.run, t0 + 4000)).toBe(500)
    expect(activate(paced, done.run, 'handle', 'keyboard', t0 + 4499).completed).toBeUndefined()
    expect(activate(paced, done.run, 'handle', 'keyboard', t0 + 4500).completed?.id).toBe('open')
  })

  it('a skip takes no minimum, and the next step is timed from it', () => {
    const run = skip(paced, newRun(paced, t0), 'keyboard', t0 + 200).run
    expect(stepReadyInMs(paced, run, t0 + 200)).toBe(1500)
    expect(activate(paced, run, 'handle', 'mouse', t0 + 1700).completed?.id).toBe('open')
  })

  it('a step without a minimum (an older server) can be completed at once', () => {
    expect(stepReadyInMs(scene, newRun(scene, t0), t0)).toBe(0)
  })
})
