import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'
import { ALERTS_POLL_MS } from '../lib/equipment'

/** One alert: which twin, how severe, the reading against its threshold and when. */
export const equipmentAlertSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  equipmentId: z.string(),
  equipmentName: z.string().nullish(),
  equipmentType: z.string().nullish(),
  level: z.string(),
  /** What raised it: sensor, status, sync or maintenance. */
  source: z.string().nullish(),
  sensor: z.string().nullish(),
  message: z.string().nullish(),
  reading: z.number().nullish(),
  comparison: z.string().nullish(),
  threshold: z.number().nullish(),
  unit: z.string().nullish(),
  timestamp: z.string().nullish(),
})

export type EquipmentAlert = z.infer<typeof equipmentAlertSchema>

export const EQUIPMENT_ALERTS_URL = '/api/digital-twin/equipment-alerts'

/** GET /api/digital-twin/equipment-alerts (seed 001 §7). */
export async function getEquipmentAlerts(): Promise<EquipmentAlert[]> {
  const res = await apiRequest('GET', EQUIPMENT_ALERTS_URL)
  return z.array(equipmentAlertSchema).parse(await res.json())
}

/** The alerts, polled every 10 s (seed 001 §9). */
export const equipmentAlertsQueryOptions = () =>
  queryOptions({
    queryKey: [EQUIPMENT_ALERTS_URL],
    queryFn: getEquipmentAlerts,
    refetchInterval: ALERTS_POLL_MS,
  })

export function useEquipmentAlerts() {
  return useQuery(equipmentAlertsQueryOptions())
}
