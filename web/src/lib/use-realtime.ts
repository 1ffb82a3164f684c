import { useEffect, useState } from 'react'
import { RealtimeClient, type RealtimeStatus } from '@/lib/realtime'

/**
 * One realtime client for a component's lifetime and its status. It connects
 * once the learner is known: /ws needs the guest cookie, which the page and
 * the first API call issue.
 */
export function useRealtimeClient(userId: string | undefined): { client: RealtimeClient; status: RealtimeStatus } {
  const [client] = useState(() => new RealtimeClient())
  const [status, setStatus] = useState<RealtimeStatus>(client.getStatus())

  useEffect(() => {
    const off = client.onStatus(setStatus)
    return () => {
      off()
      client.disconnect()
    }
  }, [client])

  useEffect(() => {
    client.setUserId(userId)
    if (userId) client.connect()
  }, [client, userId])

  return { client, status }
}
