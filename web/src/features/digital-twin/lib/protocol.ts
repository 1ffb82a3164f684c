/** The four protocols a twin can speak (issue 6). */
export type ProtocolKind = 'modbus' | 'opcua' | 'mqtt' | 'ethernetip'

export const PROTOCOL_KINDS: readonly ProtocolKind[] = ['modbus', 'opcua', 'mqtt', 'ethernetip']

export const PROTOCOL_NAMES: Record<ProtocolKind, string> = {
  modbus: 'Modbus TCP',
  opcua: 'OPC-UA',
  mqtt: 'MQTT',
  ethernetip: 'EtherNet/IP',
}

/** 'Modbus TCP', 'modbus-tcp', 'OPC UA', 'EtherNet/IP', 'ENIP' … → the protocol kind, or null. */
export function protocolKind(value: unknown): ProtocolKind | null {
  const v = typeof value === 'string' ? value.toLowerCase().replace(/[^a-z]/g, '') : ''
  if (v.startsWith('modbus')) return 'modbus'
  if (v.startsWith('opcua') || v === 'opc') return 'opcua'
  if (v.startsWith('mqtt')) return 'mqtt'
  if (v.startsWith('ethernetip') || v === 'enip' || v === 'cip') return 'ethernetip'
  return null
}

/**
 * The Modbus reads the tester offers and the block each device exposes for
 * them (internal/server/twin.go): changing the function code resets the
 * address range to the whole block, a sensible first read.
 */
export const MODBUS_FUNCTIONS = [
  { code: 1, name: 'Read Coils', block: 2, holds: 'coils 0–1' },
  { code: 2, name: 'Read Discrete Inputs', block: 4, holds: 'discrete inputs 0–3' },
  { code: 3, name: 'Read Holding Registers', block: 14, holds: 'holding registers 0–13: the seven readings as float32' },
  { code: 4, name: 'Read Input Registers', block: 5, holds: 'input registers 0–4: status, alert level, operating hours (hi/lo), sync errors' },
] as const

/** The read of a function code's whole block, or null for a code the tester does not offer. */
export function modbusBlock(code: number): { startAddress: number; registerCount: number; holds: string } | null {
  const f = MODBUS_FUNCTIONS.find((m) => m.code === code)
  return f ? { startAddress: 0, registerCount: f.block, holds: f.holds } : null
}

/** OPC-UA nodes every simulated device serves. */
export const OPCUA_NODES = [
  'Temperature',
  'Pressure',
  'Vibration',
  'Current',
  'Voltage',
  'Rpm',
  'Efficiency',
  'Status',
  'AlertLevel',
  'OperatingHours',
  'SyncErrorCount',
].map((n) => `ns=1;s=${n}`)

/** EtherNet/IP tags every simulated device serves. */
export const CIP_TAGS = ['Temperature', 'Pressure', 'Vibration', 'Current', 'Voltage', 'Rpm', 'Efficiency'] as const

/** What the learner sets before Test Protocol, per protocol. */
export interface ProtocolParams {
  functionCode: number
  startAddress: number
  registerCount: number
  nodeId: string
  topic: string
  qos: number
  /** EtherNet/IP: read an assembly instance or a named tag. */
  cipTarget: 'assembly' | 'tag'
  assembly: number
  tag: string
}

function param(params: Record<string, unknown> | null | undefined, ...keys: string[]): unknown {
  if (!params) return undefined
  for (const k of keys) if (params[k] !== undefined && params[k] !== null && params[k] !== '') return params[k]
  return undefined
}
const asInt = (v: unknown, fallback: number) => {
  const n = typeof v === 'string' ? Number(v) : v
  return typeof n === 'number' && Number.isInteger(n) ? n : fallback
}
const asString = (v: unknown, fallback: string) => (typeof v === 'string' && v ? v : fallback)

/**
 * The one MQTT topic Test Protocol may publish to for a twin: beside its
 * telemetry topic, never on it, so a test never becomes a reading. The
 * server refuses any other.
 */
export function testTopic(equipmentId: string): string {
  return `journeyman/equipment/${equipmentId}/test`
}

/**
 * Defaults for the tester taken from the device's connection parameters where
 * it names them (its register block, node, assembly or tag), otherwise
 * a read that works on any device: holding registers 0–9, the device's
 * temperature node (ns=1;s=Temperature), assembly 100. The MQTT topic is
 * always the twin's test topic, whatever telemetry topic it names.
 */
export function defaultProtocolParams(equipmentId: string, connectionParameters?: Record<string, unknown> | null): ProtocolParams {
  const cp = connectionParameters ?? {}
  const firstTag = Array.isArray(cp.tags) && typeof cp.tags[0] === 'string' ? (cp.tags[0] as string) : undefined
  const firstNode = Array.isArray(cp.nodeIds) && typeof cp.nodeIds[0] === 'string' ? (cp.nodeIds[0] as string) : undefined
  const firstAssembly = Array.isArray(cp.assemblies) ? cp.assemblies[0] : undefined
  return {
    functionCode: asInt(param(cp, 'functionCode'), 3),
    startAddress: asInt(param(cp, 'startAddress', 'registerStart', 'baseAddress'), 0),
    registerCount: asInt(param(cp, 'registerCount', 'registers'), 10),
    nodeId: asString(param(cp, 'nodeId') ?? firstNode, OPCUA_NODES[0]),
    topic: asString(param(cp, 'testTopic'), testTopic(equipmentId)),
    qos: asInt(param(cp, 'qos'), 1),
    cipTarget: param(cp, 'tag') !== undefined || (firstTag && firstAssembly === undefined) ? 'tag' : 'assembly',
    assembly: asInt(param(cp, 'assembly', 'inputAssembly') ?? firstAssembly, 100),
    tag: asString(param(cp, 'tag') ?? firstTag, 'Temperature'),
  }
}

/** The `data` of simulate-communication for a protocol (seed 001 §7). */
export function protocolRequestData(kind: ProtocolKind, p: ProtocolParams): Record<string, unknown> {
  switch (kind) {
    case 'modbus':
      return { functionCode: p.functionCode, startAddress: p.startAddress, registerCount: p.registerCount }
    case 'opcua':
      return { nodeId: p.nodeId }
    case 'mqtt':
      return { topic: p.topic, qos: p.qos }
    case 'ethernetip':
      return p.cipTarget === 'tag' ? { tag: p.tag } : { assembly: p.assembly }
  }
}

/**
 * Bytes given as hex (any spacing, upper or lower case) → their values; null
 * when the text is not whole bytes of hex.
 */
export function parseHex(hex: string): number[] | null {
  const clean = hex.replace(/\s+|0x/gi, '')
  if (clean.length % 2 !== 0 || /[^0-9a-f]/i.test(clean)) return null
  const out: number[] = []
  for (let i = 0; i < clean.length; i += 2) out.push(parseInt(clean.slice(i, i + 2), 16))
  return out
}

/**
 * A classic hex dump: 16 bytes a line, the offset, the bytes, and their
 * printable ASCII (dots elsewhere), so a learner can line up fields.
 */
export function hexDump(hex: string): string {
  const bytes = parseHex(hex)
  if (bytes === null) return hex
  const lines: string[] = []
  for (let off = 0; off < bytes.length; off += 16) {
    const row = bytes.slice(off, off + 16)
    const hexPart = row.map((b) => b.toString(16).padStart(2, '0')).join(' ')
    const ascii = row.map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('')
    lines.push(`${off.toString(16).padStart(4, '0')}  ${hexPart.padEnd(47, ' ')}  ${ascii}`)
  }
  return lines.join('\n')
}
