import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'
import type { SimulatedSensorData } from '../lib/simulate'
import { EQUIPMENT_URL, equipmentSchema, type Equipment } from './get-equipment'
import { EQUIPMENT_ALERTS_URL } from './get-equipment-alerts'
import { dataStreamsQueryKey } from './get-data-streams'

/** The answer: the twin after the update and its alerts. */
export const sensorDataResponseSchema = z.looseObject({
  equipment: equipmentSchema,
  alerts: z.array(z.unknown()).nullish(),
})

/** POST /api/digital-twin/equipment/{id}/sensor-data (seed 001 §7); answers the updated twin. */
export async function postSensorData(id: string, sensorData: SimulatedSensorData): Promise<Equipment> {
  const res = await apiRequest('POST', `${EQUIPMENT_URL}/${encodeURIComponent(id)}/sensor-data`, { sensorData })
  return sensorDataResponseSchema.parse(await res.json()).equipment
}

/**
 * Update Sensors. The answer replaces the twin in the cached list at once so
 * the new readings show without waiting for the next 5 s poll; the list,
 * alerts and streams are then refetched because status and alerts may follow.
 */
export function useUpdateSensors() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ id, sensorData }: { id: string; sensorData: SimulatedSensorData }) => postSensorData(id, sensorData),
    onSuccess: (updated, { id }) => {
      qc.setQueryData<Equipment[]>([EQUIPMENT_URL], (list) => list?.map((e) => (e.id === updated.id ? updated : e)))
      void qc.invalidateQueries({ queryKey: [EQUIPMENT_URL], exact: true })
      void qc.invalidateQueries({ queryKey: [EQUIPMENT_ALERTS_URL] })
      void qc.invalidateQueries({ queryKey: dataStreamsQueryKey(id) })
    },
  })
}
