/** Seed 001 §9: a card shows this many sensor readings. */
export const CARD_SENSOR_READINGS = 4
/** Seed 001 §9: the operating-hours bar is scaled against this many hours. */
export const OPERATING_HOURS_SCALE = 10_000

/** Seed 001 §9 polling intervals. */
export const EQUIPMENT_POLL_MS = 5_000
export const ALERTS_POLL_MS = 10_000
export const STREAMS_POLL_MS = 2_000

/** Seed 001 §4: the statuses a twin can have; anything else is shown as 'unknown'. */
export const EQUIPMENT_STATUSES = ['operational', 'maintenance', 'offline', 'error'] as const
export type EquipmentStatus = (typeof EQUIPMENT_STATUSES)[number] | 'unknown'

/** Seed 001 §4 alert levels. */
export const ALERT_LEVELS = ['normal', 'warning', 'critical', 'emergency'] as const
export type AlertLevel = (typeof ALERT_LEVELS)[number] | 'unknown'

/** Seed 001 §4 sync states. */
export const SYNC_STATUSES = ['synced', 'syncing', 'error', 'disconnected'] as const
export type SyncStatus = (typeof SYNC_STATUSES)[number] | 'unknown'

function oneOf<T extends string>(allowed: readonly T[], value: unknown): T | 'unknown' {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : ''
  return (allowed as readonly string[]).includes(v) ? (v as T) : 'unknown'
}

/** Normalises a server status; a value outside seed 001 §4 becomes 'unknown'. */
export function equipmentStatus(value: unknown): EquipmentStatus {
  return oneOf(EQUIPMENT_STATUSES, value)
}

/** Normalises a server alert level; a value outside seed 001 §4 becomes 'unknown'. */
export function alertLevel(value: unknown): AlertLevel {
  return oneOf(ALERT_LEVELS, value)
}

/** Normalises a server sync status; a value outside seed 001 §4 becomes 'unknown'. */
export function syncStatus(value: unknown): SyncStatus {
  return oneOf(SYNC_STATUSES, value)
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** The label a status badge shows. */
export function statusLabel(value: unknown): string {
  return capitalise(equipmentStatus(value))
}

/** The label an alert-level badge shows. */
export function alertLabel(value: unknown): string {
  return capitalise(alertLevel(value))
}

/** The label a sync badge shows. */
export function syncLabel(value: unknown): string {
  return capitalise(syncStatus(value))
}

/** Tone of a badge: the colour family a state is drawn in. */
export type Tone = 'good' | 'info' | 'warn' | 'bad' | 'severe' | 'muted'

const statusTones: Record<EquipmentStatus, Tone> = {
  operational: 'good',
  maintenance: 'warn',
  offline: 'muted',
  error: 'bad',
  unknown: 'muted',
}
const alertTones: Record<AlertLevel, Tone> = {
  normal: 'good',
  warning: 'warn',
  critical: 'bad',
  emergency: 'severe',
  unknown: 'muted',
}
const syncTones: Record<SyncStatus, Tone> = {
  synced: 'good',
  syncing: 'info',
  error: 'bad',
  disconnected: 'muted',
  unknown: 'muted',
}

export const statusTone = (value: unknown): Tone => statusTones[equipmentStatus(value)]
export const alertTone = (value: unknown): Tone => alertTones[alertLevel(value)]
export const syncTone = (value: unknown): Tone => syncTones[syncStatus(value)]

/**
 * The operating-hours bar's fill in percent of the 10,000 h scale, clamped to
 * 0–100 so a twin past the scale shows a full bar rather than overflowing.
 */
export function operatingHoursPercent(hours: unknown): number {
  const h = typeof hours === 'number' && Number.isFinite(hours) ? hours : 0
  return Math.min(100, Math.max(0, (h / OPERATING_HOURS_SCALE) * 100))
}

/** A sensor value as the server sends it: a bare number or {value, unit}. */
export type SensorValue = number | { value: number; unit?: string | null }

/** One reading ready to show. */
export interface SensorReading {
  key: string
  label: string
  value: number
  unit: string
}

// Units the server may leave out of a bare number; the key names the quantity.
const defaultUnits: Record<string, string> = {
  temperature: '°C',
  pressure: 'kPa',
  vibration: 'mm/s',
  current: 'A',
  voltage: 'V',
  rpm: 'rpm',
  efficiency: '%',
}

/** 'supplyAirTemp' → 'Supply Air Temp', 'oil_level' → 'Oil Level'. */
export function sensorLabel(key: string): string {
  const words = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .split(/\s+/)
  return words.map((w) => (w.toLowerCase() === 'rpm' ? 'RPM' : capitalise(w))).join(' ')
}

/**
 * Every numeric reading of a sensorData map in the server's order; keys that
 * are not readings (timestamp, nested non-numbers) are skipped.
 */
export function sensorReadings(sensorData: Record<string, unknown> | null | undefined): SensorReading[] {
  if (!sensorData) return []
  const out: SensorReading[] = []
  for (const [key, raw] of Object.entries(sensorData)) {
    if (key === 'timestamp') continue
    let value: number | undefined
    let unit: string | undefined
    if (typeof raw === 'number') {
      value = raw
    } else if (raw && typeof raw === 'object' && typeof (raw as { value?: unknown }).value === 'number') {
      value = (raw as { value: number }).value
      const u = (raw as { unit?: unknown }).unit
      if (typeof u === 'string') unit = u
    }
    if (value === undefined || !Number.isFinite(value)) continue
    out.push({ key, label: sensorLabel(key), value, unit: unit ?? defaultUnits[key] ?? '' })
  }
  return out
}

/** The readings a card shows: the first four (seed 001 §9). */
export function cardReadings(sensorData: Record<string, unknown> | null | undefined): SensorReading[] {
  return sensorReadings(sensorData).slice(0, CARD_SENSOR_READINGS)
}

/** A number with at most `digits` decimals and thousands separators. */
export function formatNumber(value: number, digits = 2): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: digits })
}

/** A reading as text: '72.4 °C', '1,780 rpm'. */
export function formatReading(value: number, unit: string): string {
  const n = formatNumber(value)
  if (!unit) return n
  return unit === '%' ? `${n}%` : `${n} ${unit}`
}

/**
 * The message to show for a failed call. The request client turns a non-ok
 * answer into "400: {body}" (seed 000 §8); the server's body is
 * {"message": "..."}, so the message is pulled out when it is there.
 */
export function errorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error ?? '')
  const m = /^(\d{3}): ([\s\S]*)$/.exec(text)
  if (!m) return text || 'Request failed'
  const [, status, body] = m
  try {
    const parsed: unknown = JSON.parse(body)
    if (parsed && typeof parsed === 'object' && typeof (parsed as { message?: unknown }).message === 'string') {
      return (parsed as { message: string }).message
    }
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return body ? `${status}: ${body}` : `Request failed (${status})`
}

/** Whole days from `now` until `date` (negative when overdue), or null for no/invalid date. */
export function daysUntil(date: string | null | undefined, now: Date): number | null {
  if (!date) return null
  const t = Date.parse(date)
  if (Number.isNaN(t)) return null
  return Math.floor((t - now.getTime()) / 86_400_000)
}

/** A server time as a short local date and time, or '—'. */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '—'
  const t = new Date(value)
  if (Number.isNaN(t.getTime())) return value
  return t.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'medium' })
}

/** A server date as a short local date, or '—'. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—'
  const t = new Date(value)
  if (Number.isNaN(t.getTime())) return value
  return t.toLocaleDateString('en-US', { dateStyle: 'medium' })
}
