/**
 * The AR welding simulator's model (spec 001 §3 "Welding session", §4, §5, §9).
 *
 * Temperature: §9 lists a drift range of 0–100 but a target band of
 * 150–200, so read literally the metric could never be on target. We model
 * temperature as the plate's interpass temperature in °C — 150–200 °C is a
 * real interpass window for carbon-steel procedures — and let it drift over
 * 100–250 °C: the band and a neighbourhood of it wide enough to reach the
 * yellow (120–240 °C) and red zones. Every other range and band is §9's as
 * written. Bead width and gas pressure have no target band in §9, so they
 * are shown uncoloured.
 */

export const techniques = ['GMAW', 'GTAW', 'SMAW', 'FCAW'] as const
export const materials = ['carbon steel', 'stainless steel', 'aluminum', 'cast iron'] as const
export const positions = ['1G', '2G', '3G', '4G'] as const
export type Technique = (typeof techniques)[number]
export type Material = (typeof materials)[number]
export type Position = (typeof positions)[number]

export const techniqueNames: Record<Technique, string> = {
  GMAW: 'GMAW (MIG)',
  GTAW: 'GTAW (TIG)',
  SMAW: 'SMAW (Stick)',
  FCAW: 'FCAW (Flux-cored)',
}
export const positionNames: Record<Position, string> = {
  '1G': '1G (flat)',
  '2G': '2G (horizontal)',
  '3G': '3G (vertical)',
  '4G': '4G (overhead)',
}

export interface WeldSettings {
  technique: Technique
  material: Material
  position: Position
}
export const defaultSettings: WeldSettings = { technique: 'GMAW', material: 'carbon steel', position: '1G' }

export const metricKeys = ['temperature', 'travelSpeed', 'penetration', 'beadWidth', 'voltage', 'amperage', 'gasPressure', 'accuracy'] as const
export type MetricKey = (typeof metricKeys)[number]
export type Metrics = Record<MetricKey, number>

export interface MetricSpec {
  label: string
  unit: string
  /** Where the value may drift (§9, temperature re-interpreted as above). */
  range: [number, number]
  /** The target band (§9); none for bead width and gas pressure. */
  target?: [number, number]
  decimals: number
}

export const METRICS: Record<MetricKey, MetricSpec> = {
  temperature: { label: 'Temperature', unit: '°C', range: [100, 250], target: [150, 200], decimals: 0 },
  travelSpeed: { label: 'Travel Speed', unit: 'in/min', range: [0, 20], target: [6, 10], decimals: 1 },
  penetration: { label: 'Penetration', unit: 'mm', range: [0, 10], target: [2.5, 4], decimals: 1 },
  beadWidth: { label: 'Bead Width', unit: 'mm', range: [0, 15], decimals: 1 },
  voltage: { label: 'Voltage', unit: 'V', range: [15, 35], target: [20, 25], decimals: 1 },
  amperage: { label: 'Amperage', unit: 'A', range: [50, 300], target: [140, 160], decimals: 0 },
  gasPressure: { label: 'Gas Pressure', unit: 'psi', range: [15, 30], decimals: 1 },
  accuracy: { label: 'Accuracy', unit: '%', range: [0, 100], target: [85, 100], decimals: 0 },
}

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

export function formatMetric(k: MetricKey, v: number): string {
  return v.toFixed(METRICS[k].decimals)
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
