import type { ReviewStep, SessionReview } from '@/api/portal'
import { formatClock } from './format'

/** Replay speeds: real time, and two faster for long sessions. */
export const playbackSpeeds = [1, 4, 16] as const
export type PlaybackSpeed = (typeof playbackSpeeds)[number]

/**
 * How long the replay runs, in ms: to the last thing that happened, or the
 * session's recorded duration when that is later (time spent after the last
 * action). Whole seconds, so the slider's one-second steps reach the end.
 */
export function timelineEnd(review: Pick<SessionReview, 'session' | 'steps' | 'events'>): number {
  let end = Math.max(0, review.session.duration * 1000)
  for (const e of review.events) end = Math.max(end, e.sessionTime)
  for (const s of review.steps) end = Math.max(end, s.endMs ?? 0)
  return Math.ceil(end / 1000) * 1000
}

/** Where a point of the session's clock sits along the timeline, in percent. */
export function position(ms: number, end: number): number {
  if (end <= 0) return 0
  return Math.min(100, Math.max(0, (ms / end) * 100))
}

/**
 * The playhead after dtMs of wall time at speed, stopping at the end.
 * `done` says the replay has reached it.
 */
export function advance(t: number, dtMs: number, speed: number, end: number): { t: number; done: boolean } {
  const next = t + Math.max(0, dtMs) * speed
  return next >= end ? { t: end, done: true } : { t: next, done: false }
}

/**
 * The step the learner was on at time t, as an index into steps, or -1 when
 * no step has times (nothing was done). A step runs from the moment the
 * learner moved on from the one before to its completion or skip. Before the
 * first timed step it is that step; after the last, the one that ended last.
 * Steps done out of order can overlap: the one begun last wins.
 */
export function currentStepIndex(steps: readonly ReviewStep[], t: number): number {
  let containing = -1
  let first = -1
  let last = -1
  steps.forEach((s, i) => {
    if (s.startMs === null || s.endMs === null) return
    if (first === -1 || s.startMs < (steps[first].startMs ?? 0)) first = i
    if (last === -1 || s.endMs >= (steps[last].endMs ?? 0)) last = i
    if (s.startMs <= t && t < s.endMs && (containing === -1 || s.startMs >= (steps[containing].startMs ?? 0))) containing = i
  })
  if (containing !== -1) return containing
  if (first === -1) return -1
  return t < (steps[first].startMs ?? 0) ? first : last
}

const outcomeWords: Record<ReviewStep['status'], string> = { completed: 'completed', skipped: 'skipped', missed: 'missed' }

/** What the live region says of a step: "Step 3 of 7: Test for voltage — completed at 1:42". */
export function stepAnnouncement(steps: readonly ReviewStep[], index: number): string {
  const step = steps[index]
  if (!step) return ''
  const when = step.endMs !== null && step.status !== 'missed' ? ` at ${formatClock(step.endMs)}` : ''
  return `Step ${index + 1} of ${steps.length}: ${step.instruction} — ${outcomeWords[step.status]}${when}`
}

/** The value a screen reader reads for the slider: "1:42 of 4:10". */
export function positionText(t: number, end: number): string {
  return `${formatClock(t)} of ${formatClock(end)}`
}

/** Readable name of an event kind: "select_object" → "select object". */
export function kindLabel(kind: string): string {
  return kind.replace(/[_-]+/g, ' ').trim() || 'action'
}
