import { z } from 'zod'
import { MAX_LIVE_TEXT, type LiveSafetyCheck, type PortalLiveSession } from '@/api/portal'
import type { SafetyAlert } from '@/api/realtime'
import { formatCount, formatDateTime } from './format'

/*
 * The live view's state, folded from the server's answers and its realtime
 * messages. Every figure is the server's: these only place and word them.
 */

/** Most recently updated first, as GET /api/portal/live answers. */
function byUpdatedDesc(a: PortalLiveSession, b: PortalLiveSession): number {
  return Date.parse(b.updatedAt) - Date.parse(a.updatedAt)
}

/**
 * Folds a live_session message into the running sessions: a running one
 * replaces its older self (or joins the list), an ended one leaves it. A
 * message older than what the list holds (a coalesced update overtaken by a
 * refetch) changes nothing.
 */
export function upsertLiveSession(list: readonly PortalLiveSession[] | undefined, s: PortalLiveSession): PortalLiveSession[] {
  const current = list ?? []
  const held = current.find((x) => x.sessionId === s.sessionId)
  if (held && s.status === 'running' && Date.parse(held.updatedAt) > Date.parse(s.updatedAt)) return [...current]
  const others = current.filter((x) => x.sessionId !== s.sessionId)
  if (s.status === 'ended') return others
  return [...others, s].sort(byUpdatedDesc)
}

/**
 * Folds a safety_alert message into the alerts, newest first: a new alert
 * goes on top; one the list holds (relayed again) stays where it stands,
 * keeping an acknowledgement the relayed copy may not carry.
 */
export function addAlert(list: readonly SafetyAlert[] | undefined, alert: SafetyAlert): SafetyAlert[] {
  const current = list ?? []
  if (!current.some((a) => a.id === alert.id)) return [alert, ...current]
  return current.map((a) => (a.id === alert.id ? { ...alert, acknowledgement: alert.acknowledgement ?? a.acknowledgement } : a))
}

/**
 * Folds a safety_alert_ack message (or an acknowledge answer) into the
 * alerts: the alert it names takes its acknowledgement where it stands. An
 * alert the list does not hold (older than the newest it shows) is not added.
 */
export function acknowledgeAlert(list: readonly SafetyAlert[] | undefined, alert: SafetyAlert): SafetyAlert[] {
  return (list ?? []).map((a) => (a.id === alert.id ? { ...a, ...alert, acknowledgement: alert.acknowledgement ?? a.acknowledgement } : a))
}

const alertTypeLabels: Record<string, string> = { emergency: 'Emergency', help: 'Help', equipment: 'Equipment', general: 'General' }

/** "Emergency", "Help"…; an unknown type as it came. */
export function alertTypeLabel(alertType: string): string {
  return alertTypeLabels[alertType] ?? (alertType ? alertType.charAt(0).toUpperCase() + alertType.slice(1) : 'General')
}

/** What the assertive live region says when an alert arrives: "Emergency alert from Lena Learner: Emergency stop requested". */
export function alertAnnouncement(alert: Pick<SafetyAlert, 'alertType' | 'displayName' | 'description'>): string {
  return `${alertTypeLabel(alert.alertType)} alert from ${alert.displayName || 'someone'}: ${alert.description}`
}

/** "Step 3 of 6: <instruction>", or "All steps done" once the server finds no step left. */
export function stepLabel(s: Pick<PortalLiveSession, 'step' | 'stepsTotal'>): string {
  if (s.step) return `Step ${s.step.index + 1} of ${s.step.total}: ${s.step.instruction}`
  return s.stepsTotal === 0 ? 'No steps in this module' : 'All steps done'
}

export interface CheckCounts {
  passed: number
  skipped: number
  pending: number
}

export function checkCounts(checks: readonly Pick<LiveSafetyCheck, 'status'>[]): CheckCounts {
  const counts: CheckCounts = { passed: 0, skipped: 0, pending: 0 }
  for (const c of checks) counts[c.status]++
  return counts
}

/** "2 passed, 1 skipped, 3 to come" of a running session's safety checks; parts that are 0 are left out. */
export function liveChecksSummary(checks: readonly Pick<LiveSafetyCheck, 'status'>[]): string {
  if (checks.length === 0) return 'None in this module'
  const { passed, skipped, pending } = checkCounts(checks)
  const parts = [passed && `${formatCount(passed)} passed`, skipped && `${formatCount(skipped)} skipped`, pending && `${formatCount(pending)} to come`]
  return parts.filter(Boolean).join(', ')
}

/** How a check's status reads in the list of checks. */
export const checkStatusLabels: Record<LiveSafetyCheck['status'], string> = { passed: 'Passed', skipped: 'Skipped', pending: 'To come' }

/**
 * How long ago an ISO time was, as a glance at a live list wants it: "just
 * now" under 10 s, then seconds, minutes and hours ("3 min ago"). A time
 * the browser's clock puts in the future (clocks differ) reads as just now.
 */
export function formatAgo(iso: string, nowMs: number): string {
  const then = Date.parse(iso)
  if (Number.isNaN(then)) return iso
  const s = Math.floor((nowMs - then) / 1000)
  if (s < 10) return 'just now'
  if (s < 60) return `${s} s ago`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m} min ago`
  const h = Math.floor(m / 60)
  return `${h} h ${String(m % 60).padStart(2, '0')} min ago`
}

/** A time of today as a time of day (14:05); of another day with its date, since the alert list reaches back. */
export function formatWhen(iso: string, nowMs: number): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  if (date.toDateString() !== new Date(nowMs).toDateString()) return formatDateTime(iso)
  return new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(date)
}

/** The server's bound, counted as it counts: in characters (code points), after trimming. */
export const liveTextLength = (s: string) => [...s.trim()].length

const tooLong = (what: string) => `${what} must be at most ${MAX_LIVE_TEXT} characters.`

/** The message form: what the server accepts, 1..500 characters once trimmed. */
export const liveMessageFormSchema = z.object({
  text: z
    .string()
    .trim()
    .min(1, 'Write the message first.')
    .refine((text) => liveTextLength(text) <= MAX_LIVE_TEXT, tooLong('The message')),
})
export type LiveMessageFormValues = z.input<typeof liveMessageFormSchema>

/** The stop dialog: the reason is optional, at most 500 characters. */
export const stopFormSchema = z.object({
  reason: z
    .string()
    .trim()
    .refine((reason) => liveTextLength(reason) <= MAX_LIVE_TEXT, tooLong('The reason')),
})
export type StopFormValues = z.input<typeof stopFormSchema>
