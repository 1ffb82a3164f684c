import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'
import { EQUIPMENT_POLL_MS } from '../lib/equipment'

const sensorValueSchema = z.union([z.number(), z.looseObject({ value: z.number(), unit: z.string().nullish() })])

/**
 * One twin (seed 001 §3 Equipment). Status, alert level and sync status stay
 * plain strings: a value outside seed 001 §4 must still load and be shown as
 * 'unknown' rather than fail the whole list.
 */
export const equipmentSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  manufacturer: z.string().nullish(),
  model: z.string().nullish(),
  serialNumber: z.string().nullish(),
  type: z.string().nullish(),
  status: z.string().nullish(),
  alertLevel: z.string().nullish(),
  communicationProtocol: z.string().nullish(),
  protocolVersion: z.string().nullish(),
  connectionParameters: z.record(z.string(), z.unknown()).nullish(),
  syncStatus: z.string().nullish(),
  syncErrorCount: z.number().nullish(),
  operatingHours: z.number().nullish(),
  sensorData: z.record(z.string(), z.union([sensorValueSchema, z.unknown()])).nullish(),
  lastUpdated: z.string().nullish(),
  lastMaintenance: z.string().nullish(),
  nextMaintenanceDate: z.string().nullish(),
  maintenanceSchedule: z.unknown().optional(),
  supportedTradeTypes: z.array(z.string()).nullish(),
})

export type Equipment = z.infer<typeof equipmentSchema>

export const EQUIPMENT_URL = '/api/digital-twin/equipment'

/** GET /api/digital-twin/equipment (seed 001 §7). */
export async function getEquipment(): Promise<Equipment[]> {
  const res = await apiRequest('GET', EQUIPMENT_URL)
  return z.array(equipmentSchema).parse(await res.json())
}

/** The equipment list, polled every 5 s (seed 001 §9). */
export const equipmentQueryOptions = () =>
  queryOptions({
    queryKey: [EQUIPMENT_URL],
    queryFn: getEquipment,
    refetchInterval: EQUIPMENT_POLL_MS,
  })

export function useEquipment() {
  return useQuery(equipmentQueryOptions())
}
