import type { InputKind, Interaction, SafetyCheckResult, Scene, Step } from '@/components/xr/types'

/**
 * The learner's progress through a scene: pure functions over an immutable
 * run, so the launcher, the 3D player and the tests share one set of rules.
 */

export type StepStatus = 'pending' | 'done' | 'skipped'

export interface TrainingRun {
  /**
   * Epoch ms when the session started; sessionTime counts from here. The
   * launcher sets it when the server has acknowledged the start, so the
   * run's clock never runs ahead of the server's (which verifies it).
   */
  startedAtMs: number
  status: Record<string, StepStatus>
  /** Every recorded interaction, in order; seq is the index. */
  interactions: Interaction[]
}

/** A learner action on an object that is not the current step's target. */
export const ACTION_INSPECT = 'inspect'
/** A skipped step (internal/training ActionSkip). */
export const ACTION_SKIP = 'skip'

export function newRun(scene: Scene, startedAtMs: number): TrainingRun {
  return { startedAtMs, status: Object.fromEntries(scene.steps.map((s) => [s.id, 'pending' as StepStatus])), interactions: [] }
}

/** The step the learner is on: the first one neither done nor skipped. */
export function currentStep(scene: Scene, run: TrainingRun): Step | undefined {
  return scene.steps.find((s) => run.status[s.id] === 'pending')
}

export function isFinished(scene: Scene, run: TrainingRun): boolean {
  return currentStep(scene, run) === undefined
}

/** Ms since the run started, as sessionTime records it. */
function elapsed(run: TrainingRun, nowMs: number): number {
  return Math.max(0, Math.round(nowMs - run.startedAtMs))
}

function record(run: TrainingRun, fields: Omit<Interaction, 'timestamp' | 'sessionTime' | 'seq'>, nowMs: number): Interaction {
  const last = run.interactions.at(-1)
  return {
    ...fields,
    timestamp: new Date(nowMs).toISOString(),
    // Never decreasing, even if the system clock is set back: the server
    // does not verify a session whose clock goes backwards.
    sessionTime: Math.max(last?.sessionTime ?? 0, elapsed(run, nowMs)),
    seq: run.interactions.length,
  }
}

/** The sessionTime at which the current step began: the last step done or skipped, else the start. */
function currentStepSince(run: TrainingRun): number {
  for (let i = run.interactions.length - 1; i >= 0; i--) {
    if (run.interactions[i].stepId !== undefined) return run.interactions[i].sessionTime
  }
  return 0
}

/**
 * Ms until the current step can be completed: a step takes at least its
 * minDurationMs from the moment it became current (internal/training
 * Verify), and the player does not accept it sooner, so that a learner's
 * real session is always verified. 0 when it can be completed now.
 */
export function stepReadyInMs(scene: Scene, run: TrainingRun, nowMs: number): number {
  const step = currentStep(scene, run)
  if (!step) return 0
  return Math.max(0, currentStepSince(run) + (step.minDurationMs ?? 0) - elapsed(run, nowMs))
}

/**
 * The learner activated an object (click, select, squeeze, pinch or the
 * keyboard). On the current step's target it completes the step with the
 * step's action, once the step's minimum time has passed; sooner, or
 * anywhere else, it is recorded as an inspection (tooEarlyMs says how long
 * the step still needs).
 */
export function activate(
  scene: Scene,
  run: TrainingRun,
  objectId: string,
  input: InputKind,
  nowMs: number,
): { run: TrainingRun; interaction: Interaction; completed?: Step; tooEarlyMs?: number } {
  const step = currentStep(scene, run)
  const wait = stepReadyInMs(scene, run, nowMs)
  if (step && step.target === objectId && wait > 0) {
    const interaction = record(run, { action: ACTION_INSPECT, objectId, input }, nowMs)
    return { run: { ...run, interactions: [...run.interactions, interaction] }, interaction, tooEarlyMs: wait }
  }
  if (step && step.target === objectId) {
    const interaction = record(run, { action: step.action, objectId, stepId: step.id, input }, nowMs)
    return {
      run: { ...run, status: { ...run.status, [step.id]: 'done' }, interactions: [...run.interactions, interaction] },
      interaction,
      completed: step,
    }
  }
  const interaction = record(run, { action: ACTION_INSPECT, objectId, input }, nowMs)
  return { run: { ...run, interactions: [...run.interactions, interaction] }, interaction }
}

/** Skips the current step; a skipped safety check can no longer pass. */
export function skip(scene: Scene, run: TrainingRun, input: InputKind, nowMs: number): { run: TrainingRun; interaction?: Interaction } {
  const step = currentStep(scene, run)
  if (!step) return { run }
  const interaction = record(run, { action: ACTION_SKIP, objectId: step.target, stepId: step.id, input }, nowMs)
  return { run: { ...run, status: { ...run.status, [step.id]: 'skipped' }, interactions: [...run.interactions, interaction] }, interaction }
}

/**
 * The safety checks decided so far: a check passes when its step was done,
 * and is skipped when its step was skipped. Checks whose step is still ahead
 * are left out, so updates never report a check before it was reached.
 */
export function decidedSafetyChecks(scene: Scene, run: TrainingRun): SafetyCheckResult[] {
  const out: SafetyCheckResult[] = []
  for (const step of scene.steps) {
    if (!step.safetyCheckId) continue
    const status = run.status[step.id]
    if (status === 'done') out.push({ id: step.safetyCheckId, status: 'passed' })
    if (status === 'skipped') out.push({ id: step.safetyCheckId, status: 'skipped' })
  }
  return out
}

/**
 * The safety score the server will give if the session ended now
 * (internal/training/score.go): 100 × weight of passed checks ÷ weight of
 * all checks, one decimal; a scene without checks scores 100.
 */
export function safetyScore(scene: Scene, run: TrainingRun): number {
  const passed = new Set(decidedSafetyChecks(scene, run).filter((c) => c.status === 'passed').map((c) => c.id))
  let total = 0
  let got = 0
  for (const check of scene.safetyChecks) {
    total += check.weight
    if (passed.has(check.id)) got += check.weight
  }
  if (total === 0) return 100
  return Math.round((1000 * got) / total) / 10
}

/** Whether the run meets the scene's pass criteria if it ended now. */
export function passes(scene: Scene, run: TrainingRun): boolean {
  const required = scene.passCriteria.requiredSteps.every((id) => run.status[id] === 'done')
  return required && safetyScore(scene, run) >= scene.passCriteria.minSafetyScore
}

/** Minutes for the end toast: ms ÷ 60000, rounded (spec 001 §8, §9). */
export function sessionMinutes(durationMs: number): number {
  return Math.round(durationMs / 60000)
}
