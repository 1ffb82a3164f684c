import type { SafetyAlertType } from '@/lib/realtime'

/** Modules the picker shows (spec 001 §9). */
export const PICKER_LIMIT = 6

/** Training Time card: hours = seconds ÷ 3600, rounded (spec 001 §2). */
export function trainingHours(totalSeconds: number): number {
  return Math.round(totalSeconds / 3600)
}

/** Session History: minutes = seconds ÷ 60, floored (spec 001 §2). */
export function historyMinutes(seconds: number | null | undefined): number {
  return Math.floor((seconds ?? 0) / 60)
}

/** The status badge of a history row; records without one count as completed (spec 001 §2). */
export function statusLabel(status: string | null | undefined): string {
  if (!status) return 'completed'
  return status.replace(/_/g, ' ')
}

/** The picker's entries: the first six, plus the chosen module when it is further down the catalog. */
export function pickerModules<T extends { id: string }>(modules: T[], selectedId: string | undefined): T[] {
  const first = modules.slice(0, PICKER_LIMIT)
  if (!selectedId || first.some((m) => m.id === selectedId)) return first
  const chosen = modules.find((m) => m.id === selectedId)
  return chosen ? [...first, chosen] : first
}

/**
 * The module the center opens: ?module=<id> when it names a catalog module,
 * else none. Nothing is preselected: a module's XR content is fetched, and
 * its 3D scene loaded, only once the learner selects it (spec 001 §7). The
 * spec's default id 'default' names no catalog module, so it selects none.
 */
export function chooseModule<T extends { id: string }>(modules: T[], requested: string | null): T | undefined {
  return requested ? modules.find((m) => m.id === requested) : undefined
}

/** The four Safety Controls (spec 001 §2): button, category, message. */
export const safetyControls: { label: string; alertType: SafetyAlertType; description: string }[] = [
  { label: 'Emergency Stop', alertType: 'emergency', description: 'Emergency stop requested' },
  { label: 'Request Help', alertType: 'help', description: 'Need assistance' },
  { label: 'Equipment Issue', alertType: 'equipment', description: 'Equipment malfunction' },
  { label: 'Safety Concern', alertType: 'general', description: 'General safety concern' },
]

/** The Analytics tab's fixed figures (spec 001 §2). */
export const fixedPerformance = [
  { label: 'Interaction Accuracy', value: 92 },
  { label: 'Task Completion Rate', value: 88 },
  { label: 'Safety Compliance', value: 96 },
] as const
export const AVERAGE_SESSION_MINUTES = 24
export const deviceUsage = [
  { label: 'Desktop', value: 45 },
  { label: 'VR', value: 35 },
  { label: 'AR', value: 20 },
] as const
