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
 *   POST /api/digital-twin/equipment                            → 201 Equipment (instructors and admins)
 *   PUT  /api/digital-twin/equipment/{id}                       → Equipment, the same body
 *   DELETE /api/digital-twin/equipment/{id}                     → 204: retired (it leaves the lists, its history stays)
 *   POST /api/digital-twin/connection-test                      → ConnectionTestResult: each mapped point read once, nothing saved
 *
 * How often a page polls is the page's choice (spec 001 §9: 5 s, 10 s, 2 s).
 */

/**
 * Where one sensor's value is on a real device (twin.Point): a Modbus
 * register, an OPC UA node id, an EtherNet/IP tag or an MQTT payload key,
 * and how the raw value becomes the reading (raw × scale + offset). Only the
 * fields of the twin's protocol are set.
 */
export const connectionPointSchema = z.looseObject({
  sensor: z.string(),
  register: z.number().nullish(),
  registerType: z.string().nullish(),
  dataType: z.string().nullish(),
  wordOrder: z.string().nullish(),
  nodeId: z.string().nullish(),
  tag: z.string().nullish(),
  field: z.string().nullish(),
  scale: z.number().nullish(),
  offset: z.number().nullish(),
})
export type ConnectionPoint = z.infer<typeof connectionPointSchema>

/**
 * How the gateway reaches a twin's real device (twin.Connection). The
 * password is never sent back: hasPassword says one is stored.
 */
export const connectionSchema = z.looseObject({
  address: z.string(),
  unitId: z.number().nullish(),
  securityPolicy: z.string().nullish(),
  securityMode: z.string().nullish(),
  username: z.string().nullish(),
  hasPassword: z.boolean().nullish(),
  cipPath: z.string().nullish(),
  topic: z.string().nullish(),
  intervalMs: z.number().nullish(),
  timeoutMs: z.number().nullish(),
  points: listOf(connectionPointSchema, 'connection points'),
})
export type Connection = z.infer<typeof connectionSchema>

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
  /** The real device the twin reads; null when the built-in demo device serves it. */
  connection: connectionSchema.nullish(),
  /** Sensors whose demo-device OPC UA variable a signed-in OPC UA client may write. */
  writableSensors: z.array(z.string()).nullish(),
  /** The organisation whose instructors and admins added the twin and alone manage it; absent for the shared seeded fleet. */
  organisationId: z.string().nullish(),
  /**
   * Whether a real device serves the twin. Only the staff who manage it get
   * its connection; anyone else gets realDevice alone.
   */
  realDevice: z.boolean().nullish(),
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

/** A point as sent: the fields of the twin's protocol, scale and offset. */
export interface ConnectionPointInput {
  sensor: string
  register?: number
  registerType?: string
  dataType?: string
  wordOrder?: string
  nodeId?: string
  tag?: string
  field?: string
  scale: number
  offset: number
}

/** A connection as sent. An absent or empty password keeps the stored one. */
export interface ConnectionInput {
  address: string
  unitId?: number
  securityPolicy?: string
  securityMode?: string
  username?: string
  password?: string
  cipPath?: string
  topic?: string
  intervalMs: number
  timeoutMs: number
  points: ConnectionPointInput[]
}

/** The body of a create or an edit: the whole twin as an instructor manages it. */
export interface EquipmentInput {
  name: string
  manufacturer: string
  model: string
  serialNumber: string
  type: string
  supportedTradeTypes: string[]
  communicationProtocol: string
  maintenanceSchedule: { intervalDays: number; tasks: { task: string; frequency: string; trade: string }[] }
  /** null: the demo device serves the twin. */
  connection: ConnectionInput | null
  writableSensors: string[]
}

/** What one mapped point read: the raw value, the reading (raw × scale + offset) and its unit, or why it could not be read. */
export const pointReadingSchema = z.looseObject({
  sensor: z.string(),
  raw: z.number().nullish(),
  value: z.number().nullish(),
  unit: z.string().nullish(),
  error: z.string().nullish(),
})
export type PointReading = z.infer<typeof pointReadingSchema>

/** The answer to a connection test: whether the device answered, how long it took, and each point's reading. */
export const connectionTestResultSchema = z.looseObject({
  ok: z.boolean(),
  durationMs: z.number().nullish(),
  error: z.string().nullish(),
  points: listOf(pointReadingSchema, 'connection-test points'),
})
export type ConnectionTestResult = z.infer<typeof connectionTestResultSchema>

/** After a twin is created, edited or retired: every list that shows twins, and their alerts, are read again. */
function invalidateTwins(queryClient: ReturnType<typeof useQueryClient>) {
  void queryClient.invalidateQueries({ queryKey: twinKeys.equipment, exact: true })
  void queryClient.invalidateQueries({ queryKey: twinKeys.marketingEquipment })
  void queryClient.invalidateQueries({ queryKey: twinKeys.alerts })
}

/** POST /api/digital-twin/equipment: a new twin; the server gives its id. */
export function useCreateEquipment() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: EquipmentInput) => {
      const res = await apiRequest('POST', EQUIPMENT, input)
      return equipmentSchema.parse(await res.json())
    },
    onSuccess: () => invalidateTwins(queryClient),
  })
}

/** PUT /api/digital-twin/equipment/{id}: the twin as edited. */
export function useUpdateEquipment() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ id, input }: { id: string; input: EquipmentInput }) => {
      const res = await apiRequest('PUT', `${EQUIPMENT}/${segment(id)}`, input)
      return equipmentSchema.parse(await res.json())
    },
    onSuccess: (updated) => {
      queryClient.setQueryData<Equipment[]>(twinKeys.equipment, (list) => list?.map((e) => (e.id === updated.id ? updated : e)))
      invalidateTwins(queryClient)
    },
  })
}

/** DELETE /api/digital-twin/equipment/{id}: retires the twin; it leaves the lists at once. */
export function useRetireEquipment() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', `${EQUIPMENT}/${segment(id)}`)
    },
    onSuccess: (_, id) => {
      queryClient.setQueryData<Equipment[]>(twinKeys.equipment, (list) => list?.filter((e) => e.id !== id))
      queryClient.removeQueries({ queryKey: twinKeys.dataStreams(id) })
      invalidateTwins(queryClient)
    },
  })
}

/**
 * POST /api/digital-twin/connection-test: reads each mapped point once from
 * the device, saving nothing. equipmentId lets the server use the twin's
 * stored password when none is typed.
 */
export function useTestConnection() {
  return useMutation({
    mutationFn: async (body: { communicationProtocol: string; connection: ConnectionInput; equipmentId?: string }) => {
      const res = await apiRequest('POST', '/api/digital-twin/connection-test', body)
      return connectionTestResultSchema.parse(await res.json())
    },
  })
}
