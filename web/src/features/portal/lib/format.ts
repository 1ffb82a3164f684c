/**
 * How the portal writes times, dates and figures. Figures are the server's:
 * these only format them, never compute them.
 */

const pad2 = (n: number) => String(n).padStart(2, '0')

/**
 * A duration in seconds as people read a time spent: "1 h 05 min" from an
 * hour up (seconds no longer matter), "4 min 10 s" from a minute, "42 s"
 * below. A missing or negative duration reads as "0 s".
 */
export function formatDuration(totalSeconds: number | null | undefined): string {
  const s = Math.max(0, Math.floor(totalSeconds ?? 0))
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${pad2(Math.floor((s % 3600) / 60))} min`
  if (s >= 60) return `${Math.floor(s / 60)} min ${pad2(s % 60)} s`
  return `${s} s`
}

/**
 * How long a step took, from milliseconds: tenths of a second below a
 * minute, since a step's pace is judged in them (a click takes at least
 * 1.5 s), else as formatDuration.
 */
export function formatStepDuration(ms: number): string {
  if (ms < 60_000) return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }).format(Math.floor(Math.max(0, ms) / 100) / 10)} s`
  return formatDuration(ms / 1000)
}

/** A point of a session's own clock (ms since its start) as a stopwatch shows it: "1:42", "1:02:05". */
export function formatClock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  return h > 0 ? `${h}:${pad2(m)}:${pad2(s % 60)}` : `${m}:${pad2(s % 60)}`
}

/** formatClock with tenths, for actions a fraction of a second apart: "0:03.4". */
export function formatClockTenths(ms: number): string {
  const tenths = Math.floor(Math.max(0, ms) / 100) % 10
  return `${formatClock(ms)}.${tenths}`
}

function parsed(iso: string): Date | null {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? null : date
}

/** A date and time in the browser's locale; text that is no date is shown as it came. */
export function formatDateTime(iso: string): string {
  const date = parsed(iso)
  return date ? new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date) : iso
}

export function formatDate(iso: string): string {
  const date = parsed(iso)
  return date ? new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(date) : iso
}

/** A count in the browser's locale (1,234). */
export function formatCount(n: number): string {
  return new Intl.NumberFormat().format(n)
}

/**
 * A safety score as a percentage. The server sends one decimal; showing up
 * to one keeps "87.5" as it is and "100" without a stray ".0".
 */
export function formatScore(score: number): string {
  return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }).format(score)}%`
}

/** "1 learner", "3 learners". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`
}
