import { useCallback, useEffect, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { portalKeys, portalLiveSessionSchema, type PortalLiveSession } from '@/api/portal'
import { realtimeKeys, safetyAlertSchema, type SafetyAlert } from '@/api/realtime'
import type { RealtimeStatus } from '@/lib/realtime'
import { useRealtimeClient } from '@/lib/use-realtime'
import { acknowledgeAlert, addAlert, alertAnnouncement, upsertLiveSession } from '../lib/live'

/** Whether the server sends this connection the organisation's live sessions. */
export type WatchState = { kind: 'waiting' } | { kind: 'watching' } | { kind: 'refused'; message: string }

/** A line for a live region; n changes with every line, so the same words said twice are announced twice. */
export interface Announcement {
  n: number
  text: string
}

/** Sessions that ended while the page was open, kept so an observer sees how the one they watched ended. */
const KEEP_ENDED = 20

/**
 * The live view's channel: one /ws connection that asks for the
 * organisation's live sessions (watch_live) each time it connects, and
 * folds live_session, safety_alert and safety_alert_ack messages into the
 * answers of GET /api/portal/live and GET /api/safety-alerts?limit=alertLimit.
 * Each (re)connection reads both lists again once the server confirms the
 * watch: whatever happened while the channel was down was not sent.
 */
export function useLiveChannel(userId: string, alertLimit: number) {
  const { client, status } = useRealtimeClient(userId)
  const queryClient = useQueryClient()
  const [watch, setWatch] = useState<WatchState>({ kind: 'waiting' })
  // Whether a lost connection is a reconnect (the lists may be behind) or the first one still coming.
  const [connectedOnce, setConnectedOnce] = useState(false)
  const [ended, setEnded] = useState<PortalLiveSession[]>([])
  const [alertSaid, setAlertSaid] = useState<Announcement>({ n: 0, text: '' })
  const [sessionSaid, setSessionSaid] = useState<Announcement>({ n: 0, text: '' })

  useEffect(() => {
    const askToWatch = () => client.send('watch_live', {}, undefined)
    const offStatus = client.onStatus((s: RealtimeStatus) => {
      if (s === 'connected') {
        setConnectedOnce(true)
        askToWatch()
      } else setWatch((w) => (w.kind === 'refused' ? w : { kind: 'waiting' }))
    })
    if (client.getStatus() === 'connected') askToWatch()

    const offs = [
      client.subscribe('watching', () => {
        setWatch({ kind: 'watching' })
        void queryClient.invalidateQueries({ queryKey: portalKeys.live })
        void queryClient.invalidateQueries({ queryKey: realtimeKeys.safetyAlerts })
      }),
      client.subscribe<{ message?: unknown } | undefined>('error', (m) => {
        const message = typeof m.payload?.message === 'string' ? m.payload.message : 'The server refused to send live updates.'
        // Only watch_live is sent on this connection: before the watch holds, an error is its refusal.
        setWatch((w) => (w.kind === 'watching' ? w : { kind: 'refused', message }))
      }),
      client.subscribe('live_session', (m) => {
        const parsed = portalLiveSessionSchema.safeParse(m.payload)
        if (!parsed.success) {
          console.warn('live_session: left out a message that could not be read')
          return
        }
        const s = parsed.data
        const held = queryClient.getQueryData<PortalLiveSession[]>(portalKeys.live)
        const known = held?.some((x) => x.sessionId === s.sessionId) ?? false
        // Before the list has loaded there is nothing to fold into: the answer will hold the session.
        queryClient.setQueryData<PortalLiveSession[]>(portalKeys.live, (list) => list && upsertLiveSession(list, s))
        const title = s.moduleTitle || s.moduleId
        if (s.status === 'ended') {
          setEnded((prev) => [s, ...prev.filter((x) => x.sessionId !== s.sessionId)].slice(0, KEEP_ENDED))
          const result = s.outcome === 'passed' ? ': passed' : s.outcome === 'failed' ? ': failed' : ''
          setSessionSaid((a) => ({ n: a.n + 1, text: `${s.learnerName}'s session of ${title} ended${result}.` }))
        } else if (held && !known) {
          setSessionSaid((a) => ({ n: a.n + 1, text: `${s.learnerName} started ${title}.` }))
        }
      }),
      client.subscribe('safety_alert', (m) => {
        const parsed = safetyAlertSchema.safeParse(m.payload)
        if (!parsed.success) return
        const alert = parsed.data
        queryClient.setQueryData<SafetyAlert[]>(realtimeKeys.recentSafetyAlerts(alertLimit), (list) => list && addAlert(list, alert))
        setAlertSaid((a) => ({ n: a.n + 1, text: alertAnnouncement(alert) }))
      }),
      client.subscribe('safety_alert_ack', (m) => {
        const parsed = safetyAlertSchema.safeParse(m.payload)
        if (!parsed.success) return
        queryClient.setQueriesData<SafetyAlert[]>({ queryKey: realtimeKeys.safetyAlerts }, (list) => list && acknowledgeAlert(list, parsed.data))
      }),
    ]
    return () => {
      offStatus()
      offs.forEach((off) => off())
    }
  }, [client, queryClient, alertLimit])

  /** Tries again after the client gave up reconnecting. */
  const reconnect = useCallback(() => client.connect(), [client])

  return { status, connectedOnce, watch, ended, alertSaid, sessionSaid, reconnect }
}
