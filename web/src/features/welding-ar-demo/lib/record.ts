import type { Interaction, Step } from '@/components/xr/types'
import type { Metrics, WeldSettings } from '@/lib/weld'
import type { QualityLabel } from '@/features/welding-ar-demo/lib/welding'

/** Alert when the camera is refused (spec 001 §8), exactly. */
export const CAMERA_DENIED = 'Camera access required for AR welding simulation. Please enable camera permissions.'

export interface WeldResult {
  metrics: Metrics
  qualityScore: number
  qualityLabel: QualityLabel
  /** Seconds from start to end. */
  duration: number
}

/** A pre-weld safety check the learner ticked, and when (ms since 1970). */
export interface DoneCheck {
  step: Step
  at: number
}

type RecordedInteraction = Interaction & Record<string, unknown>

/**
 * A ticked check as the session stores it: the scene's own step, so the
 * server's safety score counts it, at the time since the session began.
 */
export function checkInteraction(check: DoneCheck, seq: number, startedAt: number): RecordedInteraction {
  return {
    action: check.step.action,
    objectId: check.step.target,
    stepId: check.step.id,
    input: 'mouse',
    seq,
    timestamp: new Date(check.at).toISOString(),
    sessionTime: Math.max(0, check.at - startedAt),
  }
}

/** The checks ticked in a session, as it stores them, in the order ticked. */
export function checkInteractions(checks: DoneCheck[], startedAt: number): RecordedInteraction[] {
  return checks.map((c, i) => checkInteraction(c, i, startedAt))
}

/**
 * The interactions a finished weld is stored with: the checks ticked in
 * this session, then the weld itself with its settings, final metrics and
 * quality.
 */
export function weldInteractions(
  checks: DoneCheck[],
  settings: WeldSettings,
  result: WeldResult,
  startedAt: number,
  endedAt: number,
): RecordedInteraction[] {
  const weld: RecordedInteraction = {
    action: 'weld',
    input: 'other',
    seq: checks.length,
    timestamp: new Date(endedAt).toISOString(),
    sessionTime: Math.max(0, endedAt - startedAt),
    technique: settings.technique,
    material: settings.material,
    position: settings.position,
    metrics: result.metrics,
    qualityScore: result.qualityScore,
    qualityLabel: result.qualityLabel,
    weldSeconds: result.duration,
  }
  return [...checkInteractions(checks, startedAt), weld]
}

/**
 * Ms until the next check can be ticked, 0 when it can be now. The checks
 * are the scene's steps, done in its order, and each takes at least
 * its minDurationMs from the moment the one before it was done (or the
 * session began), as the 3D player holds its steps: that is what the server
 * verifies (internal/training/verify.go), so a real weld is always verified.
 */
export function checkReadyInMs(steps: Step[], done: DoneCheck[], startedAt: number, now: number): number {
  const next = steps[done.length]
  if (!next) return 0
  const since = done.length > 0 ? done[done.length - 1].at : startedAt
  return Math.max(0, since + (next.minDurationMs ?? 0) - now)
}
