import { useCallback, useEffect, useState } from 'react'
import { safetyAlertText } from '@/components/safety-alerts'
import { toast } from '@/hooks/use-toast'
import type { SafetyAlertPayload } from '@/lib/realtime'
import { useRealtimeClient } from '@/lib/use-realtime'

export { safetyAlertText }

/** An alert received on the channel, as the page lists it. */
export interface ReceivedAlert {
  key: string
  alertType: string
  description: string
  at: string
  /** Who took the alert in hand (an instructor or admin) and when; unset until then. */
  acknowledged?: { by: string; at: string }
}

/** A safety_alert_ack's payload: the alert, with its sender and acknowledgement. */
interface AckPayload {
  id?: number
  userId?: string
  acknowledgement?: { displayName?: string; at?: string } | null
}

/** Marks the listed alert a safety_alert_ack names as acknowledged. */
export function foldAck(alerts: ReceivedAlert[], ack: AckPayload | undefined): ReceivedAlert[] {
  const by = ack?.acknowledgement?.displayName
  if (ack?.id === undefined || !by) return alerts
  return alerts.map((a) => (a.key === String(ack.id) ? { ...a, acknowledged: { by, at: ack.acknowledgement?.at ?? '' } } : a))
}

/** Alerts kept visible on the page. */
const KEEP_ALERTS = 5

/**
 * The center's realtime channel: one client for the page's lifetime, its
 * status for the badge, the page's list of recent safety alerts, and raising
 * an alert. Each received alert also interrupts the person: the page's
 * SafetyAlertProvider shows it in an alert dialog until acknowledged.
 */
export function useSafetyChannel(userId: string | undefined) {
  const { client, status } = useRealtimeClient(userId)
  const [alerts, setAlerts] = useState<ReceivedAlert[]>([])

  useEffect(
    () =>
      client.subscribe<Partial<SafetyAlertPayload> & { id?: number; createdAt?: string }>('safety_alert', (m) => {
        const description = m.payload?.description ?? ''
        setAlerts((prev) =>
          [
            {
              key: String(m.payload?.id ?? `${m.timestamp}-${Math.random()}`),
              alertType: m.payload?.alertType ?? 'general',
              description,
              at: m.payload?.createdAt ?? m.timestamp,
            },
            ...prev,
          ].slice(0, KEEP_ALERTS),
        )
      }),
    [client],
  )

  // An acknowledgement marks the alert in the list; the person who raised it is told at once.
  useEffect(
    () =>
      client.subscribe<AckPayload | undefined>('safety_alert_ack', (m) => {
        setAlerts((prev) => foldAck(prev, m.payload))
        const by = m.payload?.acknowledgement?.displayName
        if (by && userId && m.payload?.userId === userId) {
          toast({ title: 'Your safety alert was acknowledged', description: `${by} has it in hand.` })
        }
      }),
    [client, userId],
  )

  const raise = useCallback(
    (payload: SafetyAlertPayload) => {
      const sent = client.sendSafetyAlert(payload)
      if (!sent) {
        toast({
          variant: 'destructive',
          title: 'Safety alert not sent',
          description: 'The realtime channel is disconnected. Tell your supervisor directly.',
        })
      }
      return sent
    },
    [client],
  )

  return { client, status, alerts, raise }
}
