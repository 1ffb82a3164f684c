import { useCallback, useEffect, useMemo, useState } from 'react'
import type { RealtimeClient } from '@/lib/realtime'
import { acknowledge, alertFromMessage, enqueue, type ReceivedSafetyAlertPayload, type SafetyAlert } from '@/components/safety-alerts/queue'

/** The alert a person must acknowledge now, and how to acknowledge it. */
export interface SafetyAlertState {
  /** The oldest unacknowledged alert, or null. */
  current: SafetyAlert | null
  /** Alerts queued behind it. */
  waiting: number
  acknowledge(key: string): void
}

/**
 * Queues every safety_alert the realtime client receives (spec 001 §7) until
 * the person acknowledges it: oldest first, none dropped. Show the state with
 * SafetyAlertDialog, and hand it to the XR launcher so that an immersive
 * session shows the alert too.
 */
export function useSafetyAlerts(client: RealtimeClient | null | undefined): SafetyAlertState {
  const [queue, setQueue] = useState<SafetyAlert[]>([])

  useEffect(() => {
    if (!client) return
    return client.subscribe<ReceivedSafetyAlertPayload | undefined>('safety_alert', (m) => setQueue((q) => enqueue(q, alertFromMessage(m))))
  }, [client])

  const acknowledgeAlert = useCallback((key: string) => setQueue((q) => acknowledge(q, key)), [])
  const current = queue[0] ?? null
  const waiting = Math.max(0, queue.length - 1)
  return useMemo(() => ({ current, waiting, acknowledge: acknowledgeAlert }), [current, waiting, acknowledgeAlert])
}
