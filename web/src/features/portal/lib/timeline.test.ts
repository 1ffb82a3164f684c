import { describe, expect, it } from 'vitest'
import type { ReviewStep } from '@/api/portal'
import { advance, currentStepIndex, position, positionText, stepAnnouncement, timelineEnd } from './timeline'

const step = (id: string, status: ReviewStep['status'], startMs: number | null, endMs: number | null): ReviewStep => ({
  id,
  instruction: `Do ${id}`,
  status,
  startMs,
  endMs,
  durationMs: startMs === null || endMs === null ? null : endMs - startMs,
})

// As the server paces them: each step from the previous one's end to its own.
const steps = [step('a', 'completed', 0, 5000), step('b', 'skipped', 5000, 9000), step('c', 'missed', null, null), step('d', 'completed', 9000, 102_000)]

describe('currentStepIndex', () => {
  it('is the step whose span holds the playhead, the next one from the moment the last ended', () => {
    expect(currentStepIndex(steps, 0)).toBe(0)
    expect(currentStepIndex(steps, 4999)).toBe(0)
    expect(currentStepIndex(steps, 5000)).toBe(1)
    expect(currentStepIndex(steps, 9000)).toBe(3)
  })

  it('never lands on a missed step, and stays on the last one after the end', () => {
    expect(currentStepIndex(steps, 200_000)).toBe(3)
  })

  it('is the first timed step before it begins, and none when nothing was done', () => {
    expect(currentStepIndex([step('x', 'missed', null, null), step('y', 'completed', 2000, 4000)], 500)).toBe(1)
    expect(currentStepIndex([step('x', 'missed', null, null)], 500)).toBe(-1)
    expect(currentStepIndex([], 0)).toBe(-1)
  })

  it('takes the step begun last where steps done out of order overlap', () => {
    const overlapping = [step('a', 'completed', 0, 8000), step('b', 'completed', 3000, 5000)]
    expect(currentStepIndex(overlapping, 4000)).toBe(1)
    expect(currentStepIndex(overlapping, 6000)).toBe(0)
  })
})

describe('stepAnnouncement', () => {
  it('names the step, its number and how it went', () => {
    expect(stepAnnouncement(steps, 3)).toBe('Step 4 of 4: Do d — completed at 1:42')
    expect(stepAnnouncement(steps, 1)).toBe('Step 2 of 4: Do b — skipped at 0:09')
    expect(stepAnnouncement(steps, 2)).toBe('Step 3 of 4: Do c — missed')
    expect(stepAnnouncement(steps, -1)).toBe('')
  })
})

describe('the timeline', () => {
  const session = { duration: 100 } as Parameters<typeof timelineEnd>[0]['session']

  it('ends at the last thing that happened or the recorded duration, in whole seconds', () => {
    expect(timelineEnd({ session, steps, events: [] })).toBe(102_000)
    expect(timelineEnd({ session, steps: [], events: [{ seq: 0, sessionTime: 100_400, kind: 'click', stepId: '', objectId: '' }] })).toBe(101_000)
    expect(timelineEnd({ session: { ...session, duration: 0 }, steps: [], events: [] })).toBe(0)
  })

  it('places points in percent, clamped', () => {
    expect(position(25, 100)).toBe(25)
    expect(position(150, 100)).toBe(100)
    expect(position(5, 0)).toBe(0)
  })

  it('advances the playhead at speed and stops at the end', () => {
    expect(advance(1000, 16, 4, 10_000)).toEqual({ t: 1064, done: false })
    expect(advance(9990, 16, 16, 10_000)).toEqual({ t: 10_000, done: true })
    expect(advance(1000, -5, 1, 10_000)).toEqual({ t: 1000, done: false })
  })

  it('tells the slider position in words', () => {
    expect(positionText(102_000, 250_000)).toBe('1:42 of 4:10')
  })
})
