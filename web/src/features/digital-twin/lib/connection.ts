/*
 * A twin's connection to its real device, as internal/twin/connection.go
 * defines it: the protocols, the options of each, the limits and the checks.
 * Every message here is worded like the server's (which names the field,
 * "connection.points[2].register must be from 0 to 65534"), so a form shows
 * the same words whether the check ran here or there.
 */

/** The communication protocols a twin's device speaks (twin.Protocols), in the order a form offers them. */
export const PROTOCOLS = ['Modbus TCP', 'OPC-UA', 'EtherNet/IP', 'MQTT'] as const
export type Protocol = (typeof PROTOCOLS)[number]

export const protocolLabels: Record<Protocol, string> = {
  'Modbus TCP': 'Modbus TCP',
  'OPC-UA': 'OPC UA',
  'EtherNet/IP': 'EtherNet/IP',
  MQTT: 'MQTT',
}

export function isProtocol(value: unknown): value is Protocol {
  return (PROTOCOLS as readonly unknown[]).includes(value)
}

/** One kind of reading (twin.Sensors): its key, name and unit, in canonical order. */
export interface SensorKind {
  key: string
  name: string
  unit: string
}

export const SENSORS: readonly SensorKind[] = [
  { key: 'temperature', name: 'Temperature', unit: '°C' },
  { key: 'pressure', name: 'Pressure', unit: 'kPa' },
  { key: 'vibration', name: 'Vibration', unit: 'mm/s' },
  { key: 'current', name: 'Current', unit: 'A' },
  { key: 'voltage', name: 'Voltage', unit: 'V' },
  { key: 'rpm', name: 'Speed', unit: 'rpm' },
  { key: 'efficiency', name: 'Efficiency', unit: '%' },
]
export const SENSOR_KEYS = SENSORS.map((s) => s.key)

/** 'Temperature (°C)'; an unknown key as it is. */
export function sensorName(key: string): string {
  const s = SENSORS.find((k) => k.key === key)
  return s ? `${s.name} (${s.unit})` : key
}

/** Modbus register tables, data types and word orders (twin.RegisterTypes, DataTypes, WordOrders). */
export const REGISTER_TYPES = ['holding', 'input'] as const
export const DATA_TYPES = ['uint16', 'int16', 'uint32', 'int32', 'float32'] as const
export const WORD_ORDERS = ['high-first', 'low-first'] as const
export type RegisterType = (typeof REGISTER_TYPES)[number]
export type DataType = (typeof DATA_TYPES)[number]
export type WordOrder = (typeof WORD_ORDERS)[number]

/** OPC UA security policies and modes (twin.SecurityPolicies, SecurityModes). */
export const SECURITY_POLICIES = ['None', 'Basic256Sha256'] as const
export const SECURITY_MODES = ['None', 'Sign', 'SignAndEncrypt'] as const
export type SecurityPolicy = (typeof SECURITY_POLICIES)[number]
export type SecurityMode = (typeof SECURITY_MODES)[number]

/** Connection limits and defaults (twin.MinIntervalMs …). */
export const MIN_INTERVAL_MS = 100
export const MAX_INTERVAL_MS = 3_600_000
export const DEFAULT_INTERVAL_MS = 1000
export const MIN_TIMEOUT_MS = 50
export const MAX_TIMEOUT_MS = 60_000
export const DEFAULT_TIMEOUT_MS = 2000
export const MAX_CREDENTIAL_BYTES = 256
export const MAX_UNIT_ID = 255
export const MAX_FIELD_BYTES = 64

/** How many 16-bit registers a Modbus data type spans (twin.Registers). */
export function registersOf(dataType: string): 1 | 2 {
  return dataType.endsWith('32') ? 2 : 1
}

/** The highest first register a point of dataType may have: the last register must exist. */
export function maxRegister(dataType: string): number {
  return 65536 - registersOf(dataType)
}

/** Whether a data type spans two registers, and so needs a word order. */
export const needsWordOrder = (dataType: string) => registersOf(dataType) === 2

// The server's patterns (Go's regexp counts runes; the u flag does too).
const nodeIdPattern = /^(ns=\d{1,5};)?(i=\d{1,10}|s=.{1,256}|g=[0-9a-fA-F-]{36}|b=[A-Za-z0-9+/=]{1,256})$/u
const tagPattern = /^[A-Za-z_][A-Za-z0-9_]{0,39}(\[\d{1,5}\])?(\.[A-Za-z_][A-Za-z0-9_]{0,39}(\[\d{1,5}\])?){0,7}$/u
const cipPathPattern = /^\d{1,3},\d{1,3}(,\d{1,3},\d{1,3}){0,3}$/
const topicPattern = /^[^#+\0]{1,200}$/u

export const isNodeId = (s: string) => nodeIdPattern.test(s)
export const isTag = (s: string) => tagPattern.test(s)
export const isCipPath = (s: string) => cipPathPattern.test(s)
export const isTopic = (s: string) => topicPattern.test(s)

/** Length in bytes, as Go's len() counts a string. */
export function byteLength(s: string): number {
  return new TextEncoder().encode(s).length
}

/**
 * Why s is not host:port (net.SplitHostPort, then the server's own checks),
 * or null when it is. "[::1]:502" is an IPv6 host.
 */
export function hostPortProblem(s: string): string | null {
  let host: string
  let port: string
  if (s.startsWith('[')) {
    const m = /^\[([^\]]*)\]:([^:]*)$/.exec(s)
    if (!m) return s.includes(']') && !s.includes(']:') ? 'missing port in address' : 'bad address'
    ;[, host, port] = m
  } else {
    const i = s.lastIndexOf(':')
    if (i < 0) return 'missing port in address'
    host = s.slice(0, i)
    port = s.slice(i + 1)
    if (host.includes(':')) return 'too many colons in address'
  }
  if (host === '' || host.length > 253 || /[ /]/.test(host)) return 'bad host'
  const n = /^\+?\d+$/.test(port) ? Number(port) : NaN
  if (!(n >= 1 && n <= 65535)) return 'port must be 1 to 65535'
  return null
}

/** The scheme an address URL must have, for protocols whose address is a URL. */
export function addressScheme(protocol: Protocol): 'opc.tcp' | 'tcp' | null {
  return protocol === 'OPC-UA' ? 'opc.tcp' : protocol === 'MQTT' ? 'tcp' : null
}

/** Whether s is a URL scheme://host:port[/path] without a user (url.Parse and the server's checks). */
export function isAddressUrl(s: string, scheme: string): boolean {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([/?#].*)?$/su.exec(s)
  if (!m || m[1].toLowerCase() !== scheme) return false
  const authority = m[2]
  if (authority.includes('@')) return false
  return hostPortProblem(authority) === null
}

/** What an address looks like for a protocol, as a form's hint says it. */
export const addressExamples: Record<Protocol, string> = {
  'Modbus TCP': '10.20.1.15:502',
  'OPC-UA': 'opc.tcp://10.20.1.40:4840',
  'EtherNet/IP': '10.20.1.60:44818',
  MQTT: 'tcp://10.20.1.5:1883',
}
