import { describe, expect, it } from 'vitest'
import { formatClock, formatClockTenths, formatDuration, formatScore, formatStepDuration, plural } from './format'

describe('formatDuration', () => {
  it.each([
    [0, '0 s'],
    [null, '0 s'],
    [-5, '0 s'],
    [42, '42 s'],
    [59.9, '59 s'],
    [60, '1 min 00 s'],
    [250, '4 min 10 s'],
    [3599, '59 min 59 s'],
    [3600, '1 h 00 min'],
    [3900, '1 h 05 min'],
    [3959, '1 h 05 min'],
    [36_000 + 59 * 60, '10 h 59 min'],
  ])('%s s reads "%s"', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text)
  })
})

describe('formatStepDuration', () => {
  it('keeps tenths below a minute, where a step is judged by them', () => {
    expect(formatStepDuration(1500)).toBe('1.5 s')
    expect(formatStepDuration(3000)).toBe('3 s')
    expect(formatStepDuration(1549)).toBe('1.5 s')
    expect(formatStepDuration(0)).toBe('0 s')
    expect(formatStepDuration(61_000)).toBe('1 min 01 s')
  })
})

describe('formatClock', () => {
  it('reads like a stopwatch', () => {
    expect(formatClock(0)).toBe('0:00')
    expect(formatClock(102_000)).toBe('1:42')
    expect(formatClock(102_999)).toBe('1:42')
    expect(formatClock(3_725_000)).toBe('1:02:05')
    expect(formatClockTenths(3_450)).toBe('0:03.4')
    expect(formatClockTenths(100)).toBe('0:00.1')
  })
})

describe('formatScore and plural', () => {
  it("shows the server's one decimal, and no stray .0", () => {
    expect(formatScore(87.5)).toMatch(/^87[.,]5%$/)
    expect(formatScore(100)).toBe('100%')
  })

  it('counts', () => {
    expect(plural(1, 'learner')).toBe('1 learner')
    expect(plural(0, 'learner')).toBe('0 learners')
  })
})
