import { z } from 'zod'
import { get, type FieldErrors, type UseFormReturn } from 'react-hook-form'
import type { ConnectionInput, ConnectionPointInput, Equipment, EquipmentInput } from '@/api/twin'
import {
  DATA_TYPES,
  DEFAULT_INTERVAL_MS,
  DEFAULT_TIMEOUT_MS,
  MAX_CREDENTIAL_BYTES,
  MAX_FIELD_BYTES,
  MAX_INTERVAL_MS,
  MAX_TIMEOUT_MS,
  MAX_UNIT_ID,
  MIN_INTERVAL_MS,
  MIN_TIMEOUT_MS,
  PROTOCOLS,
  REGISTER_TYPES,
  SECURITY_MODES,
  SECURITY_POLICIES,
  SENSORS,
  SENSOR_KEYS,
  WORD_ORDERS,
  addressScheme,
  byteLength,
  hostPortProblem,
  isAddressUrl,
  isCipPath,
  isNodeId,
  isProtocol,
  isTag,
  isTopic,
  maxRegister,
  needsWordOrder,
  type DataType,
  type Protocol,
  type RegisterType,
  type WordOrder,
} from './connection'

/*
 * The equipment form's values and their way to and from the API. Numbers
 * are kept as the text typed, so "12a" can be told apart from an empty
 * field and named; the form keeps every protocol's fields of a connection,
 * so switching protocol and back loses nothing, and only the chosen
 * protocol's are sent.
 */

export interface PointValues {
  sensor: string
  register: string
  registerType: RegisterType
  dataType: DataType
  wordOrder: WordOrder
  nodeId: string
  tag: string
  field: string
  scale: string
  offset: string
}

export interface ConnectionValues {
  address: string
  unitId: string
  securityPolicy: string
  securityMode: string
  username: string
  /** Typed to replace the stored one; empty keeps it. */
  password: string
  /** The server keeps a password for this connection (read only). */
  hasPassword: boolean
  cipPath: string
  topic: string
  intervalMs: string
  timeoutMs: string
  points: PointValues[]
}

export interface TaskValues {
  task: string
  frequency: string
  trade: string
}

export interface EquipmentFormValues {
  name: string
  manufacturer: string
  model: string
  serialNumber: string
  type: string
  supportedTradeTypes: string[]
  communicationProtocol: Protocol
  maintenanceSchedule: { intervalDays: string; tasks: TaskValues[] }
  /** Off: the demo device serves the twin and the connection is not sent. */
  realDevice: boolean
  connection: ConnectionValues
  writableSensors: string[]
}

/** Limits of a twin's own fields (twin.Definition's). */
export const EQUIPMENT_LIMITS = {
  textMax: 120,
  taskMax: 200,
  tasksMax: 30,
  intervalDaysMin: 1,
  intervalDaysMax: 3650,
} as const

/** How often a maintenance task is due (twin.Frequencies). */
export const FREQUENCIES = ['daily', 'weekly', 'monthly', 'quarterly', 'semi-annual', 'annual', 'triennial'] as const

/** A twin's type: lower-case words joined by hyphens. */
const typePattern = /^[a-z0-9]+(-[a-z0-9]+)*$/

/** A new point for sensor: the demo device's register of that sensor (two per sensor, in canonical order), scale 1, offset 0. */
export function defaultPoint(sensor: string): PointValues {
  const index = Math.max(0, SENSOR_KEYS.indexOf(sensor))
  return {
    sensor,
    register: String(index * 2),
    registerType: 'holding',
    dataType: 'float32',
    wordOrder: 'high-first',
    nodeId: '',
    tag: '',
    field: sensor,
    scale: '1',
    offset: '0',
  }
}

/** The first sensor no row maps yet, or null when all are mapped. */
export function nextSensor(points: readonly Pick<PointValues, 'sensor'>[]): string | null {
  const used = new Set(points.map((p) => p.sensor))
  return SENSOR_KEYS.find((k) => !used.has(k)) ?? null
}

/** A connection as a new one starts: the server's defaults, mapping temperature. */
export function defaultConnection(): ConnectionValues {
  return {
    address: '',
    unitId: '1',
    securityPolicy: 'None',
    securityMode: 'None',
    username: '',
    password: '',
    hasPassword: false,
    cipPath: '',
    topic: '',
    intervalMs: String(DEFAULT_INTERVAL_MS),
    timeoutMs: String(DEFAULT_TIMEOUT_MS),
    points: [defaultPoint('temperature')],
  }
}

/** The form of a new twin: Modbus TCP on the demo device. */
export function newEquipmentValues(): EquipmentFormValues {
  return {
    name: '',
    manufacturer: '',
    model: '',
    serialNumber: '',
    type: '',
    supportedTradeTypes: [],
    communicationProtocol: 'Modbus TCP',
    maintenanceSchedule: { intervalDays: '365', tasks: [] },
    realDevice: false,
    connection: defaultConnection(),
    writableSensors: [],
  }
}

const text = (v: string | null | undefined) => v ?? ''
const numberText = (v: number | null | undefined, fallback: string) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : fallback)
function oneOf<T extends string>(list: readonly T[], v: unknown, fallback: T): T {
  return (list as readonly unknown[]).includes(v) ? (v as T) : fallback
}

interface Schedule {
  intervalDays?: unknown
  tasks?: unknown
}

function scheduleValues(raw: unknown): EquipmentFormValues['maintenanceSchedule'] {
  const s = (raw && typeof raw === 'object' ? raw : {}) as Schedule
  const tasks = Array.isArray(s.tasks) ? s.tasks : []
  return {
    intervalDays: typeof s.intervalDays === 'number' ? String(s.intervalDays) : '',
    tasks: tasks
      .filter((t): t is Record<string, unknown> => !!t && typeof t === 'object')
      .map((t) => ({ task: String(t.task ?? ''), frequency: String(t.frequency ?? ''), trade: String(t.trade ?? '') })),
  }
}

/** The form of a stored twin. A twin without a connection gets the defaults, shown once "Connect to a real device" is turned on. */
export function equipmentValues(e: Equipment): EquipmentFormValues {
  const c = e.connection
  const connection = c
    ? {
        address: c.address,
        unitId: numberText(c.unitId, '1'),
        securityPolicy: text(c.securityPolicy) || 'None',
        securityMode: text(c.securityMode) || 'None',
        username: text(c.username),
        password: '',
        hasPassword: c.hasPassword === true,
        cipPath: text(c.cipPath),
        topic: text(c.topic),
        intervalMs: numberText(c.intervalMs, String(DEFAULT_INTERVAL_MS)),
        timeoutMs: numberText(c.timeoutMs, String(DEFAULT_TIMEOUT_MS)),
        points: c.points.map((p) => {
          const d = defaultPoint(p.sensor)
          return {
            sensor: p.sensor,
            register: numberText(p.register, '0'),
            registerType: oneOf(REGISTER_TYPES, p.registerType, d.registerType),
            dataType: oneOf(DATA_TYPES, p.dataType, d.dataType),
            wordOrder: oneOf(WORD_ORDERS, p.wordOrder, d.wordOrder),
            nodeId: text(p.nodeId),
            tag: text(p.tag),
            field: text(p.field),
            scale: numberText(p.scale, '1'),
            offset: numberText(p.offset, '0'),
          }
        }),
      }
    : defaultConnection()
  return {
    name: e.name,
    manufacturer: text(e.manufacturer),
    model: text(e.model),
    serialNumber: text(e.serialNumber),
    type: text(e.type),
    supportedTradeTypes: [...(e.supportedTradeTypes ?? [])],
    communicationProtocol: isProtocol(e.communicationProtocol) ? e.communicationProtocol : 'Modbus TCP',
    maintenanceSchedule: scheduleValues(e.maintenanceSchedule),
    realDevice: !!c,
    connection,
    writableSensors: [...(e.writableSensors ?? [])],
  }
}

/** A whole number typed, or null: "12", " 12 ", not "1.5", "1e3" or "". */
export function parseInteger(s: string): number | null {
  const t = s.trim()
  return /^[+-]?\d{1,16}$/.test(t) ? Number(t) : null
}

/** A number typed, or null: "1.5", "-0.1", "2e-3", not "" or "abc". */
export function parseDecimal(s: string): number | null {
  const t = s.trim()
  if (t === '' || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return null
  const n = Number(t)
  return Number.isFinite(n) ? n : null
}

/** Whether the twin's OPC UA variables on the demo device may be written: only an OPC UA twin served by the demo device has them. */
export const hasWritableSensors = (v: Pick<EquipmentFormValues, 'communicationProtocol' | 'realDevice'>) => v.communicationProtocol === 'OPC-UA' && !v.realDevice

function pointInput(protocol: Protocol, p: PointValues): ConnectionPointInput {
  const out: ConnectionPointInput = { sensor: p.sensor, scale: parseDecimal(p.scale) ?? 1, offset: parseDecimal(p.offset) ?? 0 }
  switch (protocol) {
    case 'Modbus TCP':
      out.register = parseInteger(p.register) ?? 0
      out.registerType = p.registerType
      out.dataType = p.dataType
      if (needsWordOrder(p.dataType)) out.wordOrder = p.wordOrder
      break
    case 'OPC-UA':
      out.nodeId = p.nodeId.trim()
      break
    case 'EtherNet/IP':
      out.tag = p.tag.trim()
      break
    case 'MQTT':
      out.field = p.field.trim()
      break
  }
  return out
}

/** The connection as sent for protocol: only that protocol's fields; a password only when one is typed. */
export function connectionInput(protocol: Protocol, c: ConnectionValues): ConnectionInput {
  const out: ConnectionInput = {
    address: c.address.trim(),
    intervalMs: parseInteger(c.intervalMs) ?? DEFAULT_INTERVAL_MS,
    timeoutMs: parseInteger(c.timeoutMs) ?? DEFAULT_TIMEOUT_MS,
    points: c.points.map((p) => pointInput(protocol, p)),
  }
  switch (protocol) {
    case 'Modbus TCP':
      out.unitId = parseInteger(c.unitId) ?? 1
      break
    case 'OPC-UA':
      out.securityPolicy = c.securityPolicy
      out.securityMode = c.securityMode
      break
    case 'EtherNet/IP':
      if (c.cipPath.trim()) out.cipPath = c.cipPath.trim()
      break
    case 'MQTT':
      out.topic = c.topic.trim()
      break
  }
  if (protocol === 'OPC-UA' || protocol === 'MQTT') {
    if (c.username.trim()) out.username = c.username.trim()
    if (c.password) out.password = c.password
  }
  return out
}

/** The body of a create or an edit. */
export function equipmentInput(v: EquipmentFormValues): EquipmentInput {
  return {
    name: v.name.trim(),
    manufacturer: v.manufacturer.trim(),
    model: v.model.trim(),
    serialNumber: v.serialNumber.trim(),
    type: v.type.trim(),
    supportedTradeTypes: [...v.supportedTradeTypes],
    communicationProtocol: v.communicationProtocol,
    maintenanceSchedule: {
      intervalDays: parseInteger(v.maintenanceSchedule.intervalDays) ?? 0,
      tasks: v.maintenanceSchedule.tasks.map((t) => ({ task: t.task.trim(), frequency: t.frequency.trim(), trade: t.trade.trim() })),
    },
    connection: v.realDevice ? connectionInput(v.communicationProtocol, v.connection) : null,
    writableSensors: hasWritableSensors(v) ? SENSOR_KEYS.filter((k) => v.writableSensors.includes(k)) : [],
  }
}

/** One problem of the form: the field's path as react-hook-form names it ("connection.points.2.register") and the sentence shown under it. */
export interface FieldProblem {
  path: string
  message: string
}

/** Required, and at most max bytes, as the server counts. */
function checkText(out: FieldProblem[], path: string, label: string, value: string, max: number) {
  const t = value.trim()
  if (!t) out.push({ path, message: `${label} is required.` })
  else if (byteLength(t) > max) out.push({ path, message: `${label} must be at most ${max} characters.` })
}

function checkRange(out: FieldProblem[], path: string, label: string, value: string, min: number, max: number) {
  const n = parseInteger(value)
  if (n === null) out.push({ path, message: value.trim() ? `${label} must be a whole number.` : `${label} is required.` })
  else if (n < min || n > max) out.push({ path, message: `${label} must be from ${min} to ${max}.` })
}

/** The connection's problems for protocol, as the server's Connection.Validate finds them, but all at once. */
export function connectionProblems(protocol: Protocol, c: ConnectionValues): FieldProblem[] {
  const out: FieldProblem[] = []
  const at = (field: string) => `connection.${field}`
  const address = c.address.trim()
  if (!address) {
    out.push({ path: at('address'), message: 'Address is required.' })
  } else {
    const scheme = addressScheme(protocol)
    if (scheme) {
      if (!isAddressUrl(address, scheme)) out.push({ path: at('address'), message: `Address must be a URL ${scheme}://host:port.` })
    } else {
      const why = hostPortProblem(address)
      if (why) out.push({ path: at('address'), message: `Address must be host:port: ${why}.` })
    }
  }
  switch (protocol) {
    case 'Modbus TCP':
      checkRange(out, at('unitId'), 'Unit id', c.unitId, 0, MAX_UNIT_ID)
      break
    case 'OPC-UA': {
      const policy = (SECURITY_POLICIES as readonly string[]).includes(c.securityPolicy)
      const mode = (SECURITY_MODES as readonly string[]).includes(c.securityMode)
      if (!policy) out.push({ path: at('securityPolicy'), message: `Security policy must be one of ${SECURITY_POLICIES.join(', ')}.` })
      if (!mode) out.push({ path: at('securityMode'), message: `Security mode must be one of ${SECURITY_MODES.join(', ')}.` })
      if (policy && mode && (c.securityPolicy === 'None') !== (c.securityMode === 'None'))
        out.push({ path: at('securityMode'), message: 'Security mode must be None exactly when the security policy is None.' })
      if (c.password && !c.username.trim()) out.push({ path: at('username'), message: 'Username is required with a password.' })
      break
    }
    case 'EtherNet/IP':
      if (c.cipPath.trim() && !isCipPath(c.cipPath.trim())) out.push({ path: at('cipPath'), message: 'CIP path must be port,link pairs such as 1,0.' })
      break
    case 'MQTT':
      if (!isTopic(c.topic.trim())) out.push({ path: at('topic'), message: 'Topic is required: 1 to 200 characters without wildcards.' })
      break
  }
  checkRange(out, at('intervalMs'), 'Interval', c.intervalMs, MIN_INTERVAL_MS, MAX_INTERVAL_MS)
  checkRange(out, at('timeoutMs'), 'Timeout', c.timeoutMs, MIN_TIMEOUT_MS, MAX_TIMEOUT_MS)
  if (protocol === 'OPC-UA' || protocol === 'MQTT') {
    if (byteLength(c.username.trim()) > MAX_CREDENTIAL_BYTES) out.push({ path: at('username'), message: `Username must be at most ${MAX_CREDENTIAL_BYTES} bytes.` })
    if (byteLength(c.password) > MAX_CREDENTIAL_BYTES) out.push({ path: at('password'), message: `Password must be at most ${MAX_CREDENTIAL_BYTES} bytes.` })
  }
  if (c.points.length === 0) out.push({ path: at('points'), message: 'Map at least one sensor.' })
  if (c.points.length > SENSORS.length) out.push({ path: at('points'), message: `Map at most ${SENSORS.length} sensors, one each.` })
  const seen = new Set<string>()
  c.points.forEach((p, i) => {
    const pt = (field: string) => at(`points.${i}.${field}`)
    if (!SENSOR_KEYS.includes(p.sensor)) out.push({ path: pt('sensor'), message: 'Choose a sensor.' })
    else if (seen.has(p.sensor)) out.push({ path: pt('sensor'), message: `${SENSORS.find((s) => s.key === p.sensor)?.name ?? p.sensor} is mapped twice.` })
    seen.add(p.sensor)
    const scale = parseDecimal(p.scale)
    if (p.scale.trim() && scale === null) out.push({ path: pt('scale'), message: 'Scale must be a number.' })
    else if (scale === 0) out.push({ path: pt('scale'), message: 'Scale must not be 0.' })
    if (p.offset.trim() && parseDecimal(p.offset) === null) out.push({ path: pt('offset'), message: 'Offset must be a number.' })
    switch (protocol) {
      case 'Modbus TCP':
        if (!(REGISTER_TYPES as readonly string[]).includes(p.registerType)) out.push({ path: pt('registerType'), message: `Table must be one of ${REGISTER_TYPES.join(', ')}.` })
        if (!(DATA_TYPES as readonly string[]).includes(p.dataType)) out.push({ path: pt('dataType'), message: `Data type must be one of ${DATA_TYPES.join(', ')}.` })
        else checkRange(out, pt('register'), 'Register', p.register, 0, maxRegister(p.dataType))
        if (needsWordOrder(p.dataType) && !(WORD_ORDERS as readonly string[]).includes(p.wordOrder))
          out.push({ path: pt('wordOrder'), message: `Word order must be one of ${WORD_ORDERS.join(', ')}.` })
        break
      case 'OPC-UA':
        if (!isNodeId(p.nodeId.trim())) out.push({ path: pt('nodeId'), message: 'Node id must be a node id such as ns=2;s=Temperature or ns=3;i=1001.' })
        break
      case 'EtherNet/IP':
        if (!isTag(p.tag.trim())) out.push({ path: pt('tag'), message: 'Tag must be a controller tag such as Line1_Temp or Motor.Speed[2].' })
        break
      case 'MQTT': {
        const f = p.field.trim()
        if (!f || byteLength(f) > MAX_FIELD_BYTES) out.push({ path: pt('field'), message: `Field must name the payload's key, 1 to ${MAX_FIELD_BYTES} characters.` })
        break
      }
    }
  })
  return out
}

/**
 * Every problem of the form, as the server's Definition.Validate finds
 * them but all at once; the connection's only when it is sent. trades are
 * the trade ids the catalog knows (null while they load: not checked).
 */
export function equipmentProblems(v: EquipmentFormValues, trades: readonly string[] | null = null): FieldProblem[] {
  const out: FieldProblem[] = []
  const { textMax } = EQUIPMENT_LIMITS
  checkText(out, 'name', 'Name', v.name, textMax)
  checkText(out, 'manufacturer', 'Manufacturer', v.manufacturer, textMax)
  checkText(out, 'model', 'Model', v.model, textMax)
  checkText(out, 'serialNumber', 'Serial number', v.serialNumber, textMax)
  checkText(out, 'type', 'Type', v.type, textMax)
  if (v.type.trim() && !typePattern.test(v.type.trim())) out.push({ path: 'type', message: 'Type must be lower-case words joined by hyphens, such as booster-pump.' })
  const unknown = trades ? v.supportedTradeTypes.filter((t) => !trades.includes(t)) : []
  if (v.supportedTradeTypes.length === 0) out.push({ path: 'supportedTradeTypes', message: 'Choose at least one trade.' })
  else if (unknown.length > 0) out.push({ path: 'supportedTradeTypes', message: `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a trade' : 'are not trades'} of the catalog; clear ${unknown.length === 1 ? 'it' : 'them'}.` })
  if (!isProtocol(v.communicationProtocol)) out.push({ path: 'communicationProtocol', message: `Communication protocol must be one of ${PROTOCOLS.join(', ')}.` })
  checkRange(out, 'maintenanceSchedule.intervalDays', 'Interval', v.maintenanceSchedule.intervalDays, EQUIPMENT_LIMITS.intervalDaysMin, EQUIPMENT_LIMITS.intervalDaysMax)
  if (v.maintenanceSchedule.tasks.length > EQUIPMENT_LIMITS.tasksMax)
    out.push({ path: 'maintenanceSchedule.tasks', message: `A schedule may list at most ${EQUIPMENT_LIMITS.tasksMax} tasks.` })
  v.maintenanceSchedule.tasks.forEach((t, i) => {
    const at = (field: string) => `maintenanceSchedule.tasks.${i}.${field}`
    checkText(out, at('task'), 'Task', t.task, EQUIPMENT_LIMITS.taskMax)
    if (!(FREQUENCIES as readonly string[]).includes(t.frequency)) out.push({ path: at('frequency'), message: `Frequency must be one of ${FREQUENCIES.join(', ')}.` })
    if (!t.trade) out.push({ path: at('trade'), message: 'Trade is required.' })
    else if (trades && !trades.includes(t.trade)) out.push({ path: at('trade'), message: `${t.trade} is not a trade of the catalog.` })
  })
  if (v.realDevice && isProtocol(v.communicationProtocol)) out.push(...connectionProblems(v.communicationProtocol, v.connection))
  return out
}

const pointSchema = z.object({
  sensor: z.string(),
  register: z.string(),
  registerType: z.enum(REGISTER_TYPES),
  dataType: z.enum(DATA_TYPES),
  wordOrder: z.enum(WORD_ORDERS),
  nodeId: z.string(),
  tag: z.string(),
  field: z.string(),
  scale: z.string(),
  offset: z.string(),
})

const formShape = z.object({
  name: z.string(),
  manufacturer: z.string(),
  model: z.string(),
  serialNumber: z.string(),
  type: z.string(),
  supportedTradeTypes: z.array(z.string()),
  communicationProtocol: z.enum(PROTOCOLS),
  maintenanceSchedule: z.object({ intervalDays: z.string(), tasks: z.array(z.object({ task: z.string(), frequency: z.string(), trade: z.string() })) }),
  realDevice: z.boolean(),
  connection: z.object({
    address: z.string(),
    unitId: z.string(),
    securityPolicy: z.string(),
    securityMode: z.string(),
    username: z.string(),
    password: z.string(),
    hasPassword: z.boolean(),
    cipPath: z.string(),
    topic: z.string(),
    intervalMs: z.string(),
    timeoutMs: z.string(),
    points: z.array(pointSchema),
  }),
  writableSensors: z.array(z.string()),
})

const toPath = (path: string) => path.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s))

/**
 * The form's schema (for zodResolver): the shape, then every rule the
 * server applies, each at its field. trades: the catalog's trade ids, once
 * known.
 */
export function equipmentFormSchema(trades: readonly string[] | null = null): z.ZodType<EquipmentFormValues, EquipmentFormValues> {
  return formShape.superRefine((v, ctx) => {
    for (const p of equipmentProblems(v, trades)) ctx.addIssue({ code: 'custom', path: toPath(p.path), message: p.message })
  })
}

/** The form as its parts share it. */
export type EquipmentFormApi = UseFormReturn<EquipmentFormValues>

/** The message at a field's path, or at a list's root ("connection.points"), as react-hook-form keeps them. */
export function errorAt(errors: FieldErrors<EquipmentFormValues>, path: string): string | undefined {
  const e = get(errors, path) as { message?: unknown; root?: { message?: unknown } } | undefined
  const message = e?.message ?? e?.root?.message
  return typeof message === 'string' ? message : undefined
}
