import { initialDemoStats } from '@/content/live-demo'

/** The live demo's simulated counters. */
export interface DemoStats {
  viewers: number
  activeUsers: number
  /** Percent, at most 100. */
  completionRate: number
  /** Percent, at most 100. */
  averageScore: number
  safetyIncidents: number
}

/** A source of numbers in [0, 1), like Math.random; tests pass a fixed one. */
export type RandomSource = () => number

export const initialStats = (): DemoStats => ({ ...initialDemoStats })

/** Largest drift of the two percentages per tick, in percentage points. */
const PERCENT_DRIFT = 0.2

const clampPercent = (n: number) => Math.min(100, Math.max(0, Math.round(n * 10) / 10))

/** Maps r in [0, 1) to −1, 0 or +1 with equal chances. */
const step = (r: number) => Math.min(2, Math.floor(r * 3)) - 1

/**
 * One 2-second tick of the simulated live demo (seed 001 §9): viewers move
 * by −1 to +1 (never below 0); completion rate and average score drift by at
 * most ±0.2 points and are capped at 100; active trainees and safety
 * incidents hold. random is called three times, in that order.
 */
export function tickStats(s: DemoStats, random: RandomSource): DemoStats {
  const viewers = Math.max(0, s.viewers + step(random()))
  const completionRate = clampPercent(s.completionRate + (random() * 2 - 1) * PERCENT_DRIFT)
  const averageScore = clampPercent(s.averageScore + (random() * 2 - 1) * PERCENT_DRIFT)
  return { ...s, viewers, completionRate, averageScore }
}

/** A percentage as the cards show it: whole numbers. */
export const formatPercent = (n: number) => `${Math.round(n)}%`
