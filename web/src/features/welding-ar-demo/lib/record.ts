import type { Interaction, Step } from '@/components/xr/types'
import type { Metrics, QualityLabel, WeldSettings } from '@/features/welding-ar-demo/lib/welding'

/** Alert when the camera is refused (spec 001 §8), exactly. */
export const CAMERA_DENIED = 'Camera access required for AR welding simulation. Please enable camera permissions.'

export interface WeldResult {
  metrics: Metrics
  qualityScore: number
  qualityLabel: QualityLabel
  /** Seconds from start to end. */
  duration: number
}

type RecordedInteraction = Interaction & Record<string, unknown>

/**
 * The interactions a finished weld is stored with: one per pre-weld safety
 * check the learner ticked (as the scene's own step, so the server's safety
 * score counts it), then the weld itself with its settings, final metrics
 * and quality.
 */
export function weldInteractions(
  checked: Step[],
  settings: WeldSettings,
  result: WeldResult,
  startedAt: number,
  endedAt: number,
): RecordedInteraction[] {
  const at = (ms: number) => ({ timestamp: new Date(ms).toISOString(), sessionTime: Math.max(0, ms - startedAt) })
  const checks: RecordedInteraction[] = checked.map((s, i) => ({
    action: s.action,
    objectId: s.target,
    stepId: s.id,
    input: 'mouse',
    seq: i,
    ...at(startedAt),
  }))
  const weld: RecordedInteraction = {
    action: 'weld',
    input: 'other',
    seq: checks.length,
    ...at(endedAt),
    technique: settings.technique,
    material: settings.material,
    position: settings.position,
    metrics: result.metrics,
    qualityScore: result.qualityScore,
    qualityLabel: result.qualityLabel,
    weldSeconds: result.duration,
  }
  return [...checks, weld]
}
