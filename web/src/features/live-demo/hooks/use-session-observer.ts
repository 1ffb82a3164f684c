import { useEffect, useState } from 'react'
import { RealtimeClient, type RealtimeMessage, type RealtimeStatus } from '@/lib/realtime'
import { initialObserverState, observe, type ObserverState } from '../lib/observer'

const ROOM_TYPES = ['joined', 'presence', 'xr_session_update', 'error'] as const

/**
 * Watches one XR session's room on /ws as an observer: its own channel for
 * as long as sessionId is set, (re)joining the room each time the channel
 * connects, and leaving by closing it. Observers only listen: the server
 * refuses anything they would send to the room.
 */
export function useSessionObserver(sessionId: string | null) {
  // What was seen belongs to the session it was seen in; another session starts afresh.
  const [seen, setSeen] = useState<{ sessionId: string | null; state: ObserverState }>({ sessionId, state: initialObserverState })
  const state = seen.sessionId === sessionId ? seen.state : initialObserverState
  const [status, setStatus] = useState<RealtimeStatus>('disconnected')

  useEffect(() => {
    if (!sessionId) return
    const client = new RealtimeClient()
    const offStatus = client.onStatus((s) => {
      setStatus(s)
      if (s === 'connected') client.send('join', { role: 'observer' }, sessionId)
    })
    const see = (m: RealtimeMessage) =>
      setSeen((prev) => ({ sessionId, state: observe(prev.sessionId === sessionId ? prev.state : initialObserverState, m, sessionId) }))
    const offs = ROOM_TYPES.map((type) => client.subscribe(type, see))
    client.connect()
    return () => {
      offStatus()
      offs.forEach((off) => off())
      client.disconnect()
      setStatus('disconnected')
    }
  }, [sessionId])

  return { state, status }
}
