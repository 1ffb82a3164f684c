import type { RealtimeMessage } from '@/lib/realtime'

/**
 * A safety alert as received on the realtime channel (spec 001 §7), in the
 * shape the server relays (internal/realtime SafetyAlert): its stored id,
 * who raised it and when.
 */
export interface ReceivedSafetyAlertPayload {
  id?: number
  userId?: string
  displayName?: string
  sessionId?: string
  alertType?: string
  description?: string
  createdAt?: string
}

/** A received alert waiting for, or past, acknowledgement. */
export interface SafetyAlert {
  /** The server's id of the stored alert; a local one for a message without it. */
  key: string
  alertType: string
  description: string
  /** Who raised it, when the server says. */
  from?: string
  /** ISO time it was raised (the server's), else received. */
  at: string
}

/** The text every received safety alert shows (spec 001 §7). */
export function safetyAlertText(description: string): string {
  return `Safety Alert: ${description}`
}

let localKeys = 0

/** Reads a safety_alert message; fields the message lacks get the spec's defaults. */
export function alertFromMessage(m: RealtimeMessage<ReceivedSafetyAlertPayload | undefined>): SafetyAlert {
  const p = m.payload ?? {}
  return {
    key: p.id !== undefined ? `alert-${p.id}` : `local-${++localKeys}`,
    alertType: p.alertType ?? 'general',
    description: p.description ?? '',
    from: p.displayName || undefined,
    at: p.createdAt ?? m.timestamp ?? new Date().toISOString(),
  }
}

/**
 * Adds an alert at the end of the queue: none is dropped, however many
 * arrive, and the one already shown stays until it is acknowledged. An alert
 * the queue already holds (the same stored id, relayed twice) is not added again.
 */
export function enqueue(queue: readonly SafetyAlert[], alert: SafetyAlert): SafetyAlert[] {
  if (queue.some((a) => a.key === alert.key)) return [...queue]
  return [...queue, alert]
}

/** Removes an acknowledged alert; the next one, if any, is shown. */
export function acknowledge(queue: readonly SafetyAlert[], key: string): SafetyAlert[] {
  return queue.filter((a) => a.key !== key)
}
