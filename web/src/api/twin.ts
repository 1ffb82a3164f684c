import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'
import { listOf, load, segment, useRead, type ReadOptions } from '@/api/parse'

/*
 * Digital twins (internal/server/twin.go, internal/twin):
 *
 *   GET  /api/digital-twin/equipment                            → Equipment[] in fleet order
 *   GET  /api/digital-twin-equipment                            → the same, the marketing page's path
 *   GET  /api/digital-twin/equipment-alerts                     → Alert[], most severe first, then newest
 *   GET  /api/digital-twin/equipment/{id}/data-streams          → DataStream[] in sensor order
 *   POST /api/digital-twin/equipment/{id}/sensor-data           → {equipment, alerts}
 *   POST /api/digital-twin/equipment/{id}/simulate-communication → the protocol exchange
 *
 * How often a page polls is the page's choice (spec 001 §9: 5 s, 10 s, 2 s).
 */

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

/** One alert: which twin, how severe, the reading against its threshold and when. */
export const equipmentAlertSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  equipmentId: z.string(),
  equipmentName: z.string().nullish(),
  equipmentType: z.string().nullish(),
  /** warning, critical or emergency. */
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

/** One data stream of a twin (seed 001 §3). */
export const dataStreamSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  equipmentId: z.string().nullish(),
  streamName: z.string(),
  sensor: z.string().nullish(),
  value: z.number(),
  unit: z.string().nullish(),
  previousValue: z.number().nullish(),
  /** good, uncertain (stale on arrival) or bad (sensor saturated). */
  qualityIndicator: z.string().nullish(),
  timestamp: z.string().nullish(),
  /** Past readings, oldest first, bounded by the server's retention; a broken point is left out. */
  history: listOf(z.looseObject({ value: z.number(), qualityIndicator: z.string().nullish(), timestamp: z.string().nullish() }), 'data-stream history').nullish(),
})
export type DataStream = z.infer<typeof dataStreamSchema>

/** One frame on the wire: its bytes in hex and its decoded fields. */
export const protocolFrameSchema = z.looseObject({
  direction: z.string().nullish(),
  length: z.number().nullish(),
  hex: z.string(),
  summary: z.string().nullish(),
  fields: z.array(z.looseObject({ name: z.string(), value: z.unknown() })).nullish(),
})
export type ProtocolFrame = z.infer<typeof protocolFrameSchema>

/**
 * The real exchange with the twin's simulated device: the request and the
 * response frame (none for MQTT QoS 0), the whole conversation, and what
 * the client library decoded.
 */
export const protocolExchangeSchema = z.looseObject({
  protocol: z.string(),
  equipmentId: z.string().nullish(),
  device: z.string().nullish(),
  client: z.string().nullish(),
  request: protocolFrameSchema,
  response: protocolFrameSchema.nullish(),
  frames: z.array(protocolFrameSchema).nullish(),
  result: z.unknown().optional(),
  durationMs: z.number().nullish(),
  timestamp: z.string().nullish(),
})
export type ProtocolExchange = z.infer<typeof protocolExchangeSchema>

export const equipmentListSchema = listOf(equipmentSchema, 'GET /api/digital-twin/equipment')
export const equipmentAlertsSchema = listOf(equipmentAlertSchema, 'GET /api/digital-twin/equipment-alerts')
export const dataStreamsSchema = listOf(dataStreamSchema, 'GET /api/digital-twin/equipment/{id}/data-streams')

/** The answer to a sensor update: the twin after it, and its alerts. */
export const sensorDataResponseSchema = z.looseObject({
  equipment: equipmentSchema,
  alerts: listOf(equipmentAlertSchema, 'sensor-data alerts').nullish(),
})

/** An equipment_update on /ws: a twin as just stored, with its alerts (most severe first). */
export const equipmentUpdateSchema = z.looseObject({
  equipment: equipmentSchema,
  alerts: listOf(equipmentAlertSchema, 'equipment_update alerts'),
})
export type EquipmentUpdate = z.infer<typeof equipmentUpdateSchema>

const EQUIPMENT = '/api/digital-twin/equipment'

export const twinKeys = {
  equipment: [EQUIPMENT] as const,
  /** The marketing page's path: the same answer, requested but not shown (spec 000 §7). */
  marketingEquipment: ['/api/digital-twin-equipment'] as const,
  alerts: ['/api/digital-twin/equipment-alerts'] as const,
  dataStreams: (id: string) => [EQUIPMENT, id, 'data-streams'] as const,
}

export const equipmentQueryOptions = () => queryOptions({ queryKey: twinKeys.equipment, queryFn: () => load(EQUIPMENT, equipmentListSchema) })

export const marketingEquipmentQueryOptions = () =>
  queryOptions({ queryKey: twinKeys.marketingEquipment, queryFn: () => load('/api/digital-twin-equipment', equipmentListSchema) })

export const equipmentAlertsQueryOptions = () =>
  queryOptions({ queryKey: twinKeys.alerts, queryFn: () => load('/api/digital-twin/equipment-alerts', equipmentAlertsSchema) })

/** A twin's streams; with no twin selected nothing is fetched. */
export const dataStreamsQueryOptions = (id: string | null) =>
  queryOptions({
    queryKey: twinKeys.dataStreams(id ?? ''),
    queryFn: () => load(`${EQUIPMENT}/${segment(id ?? '')}/data-streams`, dataStreamsSchema),
    enabled: id !== null,
  })

export function useEquipment<R = Equipment[]>(options?: ReadOptions<Equipment[], R>) {
  return useRead(equipmentQueryOptions(), options)
}

export function useMarketingEquipment() {
  return useQuery(marketingEquipmentQueryOptions())
}

export function useEquipmentAlerts<R = EquipmentAlert[]>(options?: ReadOptions<EquipmentAlert[], R>) {
  return useRead(equipmentAlertsQueryOptions(), options)
}

/** A twin's streams; with no twin selected nothing is fetched or polled. */
export function useDataStreams<R = DataStream[]>(id: string | null, options?: ReadOptions<DataStream[], R>) {
  return useRead(dataStreamsQueryOptions(id), options)
}

/** A reading: a number or {value, unit}. */
export type SensorReading = number | { value: number; unit?: string }

/** The body's sensorData: any subset of the seven readings, and when they were taken (RFC 3339; default the server's now). */
export interface SensorDataInput {
  temperature?: SensorReading
  pressure?: SensorReading
  vibration?: SensorReading
  current?: SensorReading
  voltage?: SensorReading
  rpm?: SensorReading
  efficiency?: SensorReading
  timestamp?: string
}

/**
 * POST /api/digital-twin/equipment/{id}/sensor-data (Update Sensors). The
 * answer replaces the twin in the cached list at once so the new readings
 * show without waiting for the next poll; the list, alerts and streams are
 * then fetched again because status and alerts may follow.
 */
export function useUpdateSensors() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ id, sensorData }: { id: string; sensorData: SensorDataInput }) => {
      const res = await apiRequest('POST', `${EQUIPMENT}/${segment(id)}/sensor-data`, { sensorData })
      return sensorDataResponseSchema.parse(await res.json()).equipment
    },
    onSuccess: (updated, { id }) => {
      queryClient.setQueryData<Equipment[]>(twinKeys.equipment, (list) => list?.map((e) => (e.id === updated.id ? updated : e)))
      void queryClient.invalidateQueries({ queryKey: twinKeys.equipment, exact: true })
      void queryClient.invalidateQueries({ queryKey: twinKeys.marketingEquipment })
      void queryClient.invalidateQueries({ queryKey: twinKeys.alerts })
      void queryClient.invalidateQueries({ queryKey: twinKeys.dataStreams(id) })
    },
  })
}

/** POST /api/digital-twin/equipment/{id}/simulate-communication {protocol, data} (Test Protocol); it changes nothing stored. */
export function useSimulateCommunication() {
  return useMutation({
    mutationFn: async ({ id, protocol, data }: { id: string; protocol: string; data: Record<string, unknown> }) => {
      const res = await apiRequest('POST', `${EQUIPMENT}/${segment(id)}/simulate-communication`, { protocol, data })
      return protocolExchangeSchema.parse(await res.json())
    },
  })
}
