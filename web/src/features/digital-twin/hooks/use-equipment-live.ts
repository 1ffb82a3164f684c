import { useEffect } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { useMe } from '@/api/account'
import { equipmentUpdateSchema, twinKeys, type Equipment, type EquipmentAlert } from '@/api/twin'
import type { RealtimeStatus } from '@/lib/realtime'
import { useRealtimeClient } from '@/lib/use-realtime'
import { replaceEquipment, replaceTwinAlerts } from '../lib/live'

/**
 * The twins as they are stored, over /ws: the connection asks for them
 * (watch_equipment) each time it connects, and each equipment_update
 * replaces its twin in the equipment list and its alerts in the alerts
 * list, and has the twin's streams read again. The polling of the lists
 * goes on beside it, so a lost connection loses nothing for long.
 */
export function useEquipmentLive(): RealtimeStatus {
  const me = useMe()
  const { client, status } = useRealtimeClient(me.data?.id)
  const queryClient = useQueryClient()

  useEffect(() => {
    const watch = () => client.send('watch_equipment', {}, undefined)
    const offStatus = client.onStatus((s: RealtimeStatus) => {
      if (s === 'connected') watch()
    })
    if (client.getStatus() === 'connected') watch()
    const off = client.subscribe('equipment_update', (m) => {
      const parsed = equipmentUpdateSchema.safeParse(m.payload)
      if (!parsed.success) {
        console.warn('equipment_update: left out a message that could not be read')
        return
      }
      const { equipment, alerts } = parsed.data
      queryClient.setQueryData<Equipment[]>(twinKeys.equipment, (list) => list && replaceEquipment(list, equipment))
      queryClient.setQueryData<EquipmentAlert[]>(twinKeys.alerts, (list) => list && replaceTwinAlerts(list, equipment.id, alerts))
      void queryClient.invalidateQueries({ queryKey: twinKeys.dataStreams(equipment.id) })
    })
    return () => {
      offStatus()
      off()
    }
  }, [client, queryClient])

  return status
}
