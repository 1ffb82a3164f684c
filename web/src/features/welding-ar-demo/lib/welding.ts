/**
 * The AR welding simulator's model (spec 001 §4, §5, §9): the readings'
 * drift, their colours, the quality score and its label. The settings and
 * readings themselves are in @/lib/weld.
 */
import { METRICS, metricKeys, type MetricKey, type Metrics, type Technique, type WeldSettings } from '@/lib/weld'

export const defaultSettings: WeldSettings = { technique: 'GMAW', material: 'carbon steel', position: '1G' }

/** Simulation tick (§9). */
export const TICK_MS = 500
/** Haptic pattern on start (§9). */
export const START_VIBRATION = [100, 50, 100]

function centre(k: MetricKey): number {
  const s = METRICS[k]
  const [lo, hi] = s.target ?? s.range
  return (lo + hi) / 2
}

/** Every metric at the centre of its band: a welder who has just struck a good arc. */
export function initialMetrics(): Metrics {
  return Object.fromEntries(metricKeys.map((k) => [k, centre(k)])) as Metrics
}

/** Random step per tick, as a fraction of the range's span. */
const JITTER = 0.05
/** Pull back towards the band's centre per tick: the welder correcting. */
const PULL = 0.08

/**
 * One 500 ms tick: each metric takes a random step (±5% of its range) with a
 * slight pull towards its band's centre, clamped to its range. rng returns
 * numbers in [0, 1) like Math.random.
 */
export function drift(m: Metrics, rng: () => number): Metrics {
  const out = { ...m }
  for (const k of metricKeys) {
    const { range } = METRICS[k]
    const span = range[1] - range[0]
    const next = m[k] + (rng() * 2 - 1) * JITTER * span + (centre(k) - m[k]) * PULL
    out[k] = Math.min(range[1], Math.max(range[0], next))
  }
  return out
}

export type MetricColour = 'green' | 'yellow' | 'red' | 'neutral'

/**
 * §5: green inside the target band, yellow within 80% to 120% of it (from
 * 80% of its low end to 120% of its high end), red otherwise.
 */
export function metricColour(k: MetricKey, value: number): MetricColour {
  const t = METRICS[k].target
  if (!t) return 'neutral'
  if (value >= t[0] && value <= t[1]) return 'green'
  if (value >= t[0] * 0.8 && value <= t[1] * 1.2) return 'yellow'
  return 'red'
}

/**
 * §9: the average of accuracy, penetration × 10 (capped at 100), and 100
 * minus 10 × |travel speed − 8| (capped at 100), rounded to one decimal so
 * the label agrees with the number shown.
 */
export function qualityScore(m: Pick<Metrics, 'accuracy' | 'penetration' | 'travelSpeed'>): number {
  const raw = (m.accuracy + Math.min(m.penetration * 10, 100) + Math.min(100 - 10 * Math.abs(m.travelSpeed - 8), 100)) / 3
  return Math.round(raw * 10) / 10
}

export type QualityLabel = 'Excellent' | 'Good' | 'Fair' | 'Needs Improvement'

/** §5: 90 or more Excellent, 80 or more Good, 70 or more Fair, below 70 Needs Improvement. */
export function qualityLabel(score: number): QualityLabel {
  if (score >= 90) return 'Excellent'
  if (score >= 80) return 'Good'
  if (score >= 70) return 'Fair'
  return 'Needs Improvement'
}


/** m:ss of a duration in seconds. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}

/**
 * The catalog module a weld is recorded against: the module that teaches
 * the technique if the catalog has it, else the first welding module.
 */
const moduleForTechnique: Record<Technique, string> = {
  GMAW: 'welding-joint-preparation',
  GTAW: 'welding-joint-preparation',
  SMAW: 'welding-smaw-fillet',
  FCAW: 'welding-fcaw-3g-groove',
}

export function weldingModuleId(technique: Technique, modules: { id: string; tradeId: string }[]): string | undefined {
  const wanted = moduleForTechnique[technique]
  if (modules.some((m) => m.id === wanted)) return wanted
  return modules.find((m) => m.tradeId === 'welding')?.id
}
