/**
 * A weld's settings and readings (spec 001 §3 "Welding session", §9): what
 * the AR welding simulator offers and measures, and how a recorded weld is
 * shown (the simulator, the portal's session review).
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

/** A reading as shown, to its metric's decimals. */
export function formatMetric(k: MetricKey, v: number): string {
  return v.toFixed(METRICS[k].decimals)
}
