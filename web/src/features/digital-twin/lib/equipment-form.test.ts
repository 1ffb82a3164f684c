import { describe, expect, it } from 'vitest'
import { equipmentSchema } from '@/api/twin'
import * as answers from '@/test/server-answers'
import {
  connectionInput,
  defaultPoint,
  equipmentFormSchema,
  equipmentInput,
  equipmentProblems,
  equipmentValues,
  newEquipmentValues,
  nextSensor,
  parseDecimal,
  parseInteger,
  type EquipmentFormValues,
} from './equipment-form'

/** A valid Modbus twin on a real device, mapping temperature and current. */
function modbusTwin(): EquipmentFormValues {
  const v = newEquipmentValues()
  return {
    ...v,
    name: ' Panel LP-9 ',
    manufacturer: 'Square D',
    model: 'NF',
    serialNumber: 'SQD-9',
    type: 'panelboard',
    supportedTradeTypes: ['electrical'],
    maintenanceSchedule: { intervalDays: '365', tasks: [{ task: 'Infrared scan', frequency: 'annual', trade: 'electrical' }] },
    realDevice: true,
    connection: {
      ...v.connection,
      address: '10.20.1.15:502',
      unitId: '3',
      points: [defaultPoint('temperature'), { ...defaultPoint('current'), register: '6', dataType: 'int16', scale: '0.1', offset: '' }],
    },
  }
}

/** The problems as path → message. */
const problems = (v: EquipmentFormValues) => Object.fromEntries(equipmentProblems(v).map((p) => [p.path, p.message]))

describe('a new twin', () => {
  it('starts as Modbus TCP on the demo device, with the server’s connection defaults ready for a real one', () => {
    const v = newEquipmentValues()
    expect(v.communicationProtocol).toBe('Modbus TCP')
    expect(v.realDevice).toBe(false)
    expect(v.connection).toMatchObject({ unitId: '1', intervalMs: '1000', timeoutMs: '2000', securityPolicy: 'None', securityMode: 'None' })
    expect(v.connection.points).toEqual([defaultPoint('temperature')])
  })

  it('maps each sensor at the demo device’s register by default: two registers a sensor, float32 high word first', () => {
    expect(defaultPoint('temperature')).toMatchObject({ register: '0', registerType: 'holding', dataType: 'float32', wordOrder: 'high-first', scale: '1', offset: '0', field: 'temperature' })
    expect(defaultPoint('current').register).toBe('6')
    expect(nextSensor([{ sensor: 'temperature' }, { sensor: 'vibration' }])).toBe('pressure')
    expect(nextSensor(['temperature', 'pressure', 'vibration', 'current', 'voltage', 'rpm', 'efficiency'].map((sensor) => ({ sensor })))).toBeNull()
  })
})

describe('form → API', () => {
  it('a Modbus twin sends the Modbus fields only, numbers as numbers, a word order only for 32-bit types', () => {
    expect(equipmentInput(modbusTwin())).toEqual({
      name: 'Panel LP-9',
      manufacturer: 'Square D',
      model: 'NF',
      serialNumber: 'SQD-9',
      type: 'panelboard',
      supportedTradeTypes: ['electrical'],
      communicationProtocol: 'Modbus TCP',
      maintenanceSchedule: { intervalDays: 365, tasks: [{ task: 'Infrared scan', frequency: 'annual', trade: 'electrical' }] },
      connection: {
        address: '10.20.1.15:502',
        unitId: 3,
        intervalMs: 1000,
        timeoutMs: 2000,
        points: [
          { sensor: 'temperature', register: 0, registerType: 'holding', dataType: 'float32', wordOrder: 'high-first', scale: 1, offset: 0 },
          { sensor: 'current', register: 6, registerType: 'holding', dataType: 'int16', scale: 0.1, offset: 0 },
        ],
      },
      writableSensors: [],
    })
  })

  it('the demo device: no connection', () => {
    expect(equipmentInput({ ...modbusTwin(), realDevice: false }).connection).toBeNull()
  })

  it('OPC UA: security, credentials, node ids; a password only when typed', () => {
    const c = { ...modbusTwin().connection, address: 'opc.tcp://plc:4840', securityPolicy: 'Basic256Sha256', securityMode: 'Sign', username: 'op', password: '', hasPassword: true }
    c.points = [{ ...defaultPoint('temperature'), nodeId: ' ns=2;s=T ' }]
    expect(connectionInput('OPC-UA', c)).toEqual({
      address: 'opc.tcp://plc:4840',
      securityPolicy: 'Basic256Sha256',
      securityMode: 'Sign',
      username: 'op',
      intervalMs: 1000,
      timeoutMs: 2000,
      points: [{ sensor: 'temperature', nodeId: 'ns=2;s=T', scale: 1, offset: 0 }],
    })
    expect(connectionInput('OPC-UA', { ...c, password: 's3cret' }).password).toBe('s3cret')
  })

  it('EtherNet/IP: tags and a CIP path only when given; MQTT: topic and payload keys', () => {
    const c = { ...modbusTwin().connection, points: [{ ...defaultPoint('rpm'), tag: 'Motor.Speed[2]' }] }
    expect(connectionInput('EtherNet/IP', c)).toEqual({ address: '10.20.1.15:502', intervalMs: 1000, timeoutMs: 2000, points: [{ sensor: 'rpm', tag: 'Motor.Speed[2]', scale: 1, offset: 0 }] })
    expect(connectionInput('EtherNet/IP', { ...c, cipPath: '1,0' }).cipPath).toBe('1,0')
    expect(connectionInput('MQTT', { ...c, address: 'tcp://b:1883', topic: 'plant/ahu' })).toEqual({
      address: 'tcp://b:1883',
      topic: 'plant/ahu',
      intervalMs: 1000,
      timeoutMs: 2000,
      points: [{ sensor: 'rpm', field: 'rpm', scale: 1, offset: 0 }],
    })
  })

  it('writable sensors go only with an OPC UA twin on the demo device, in sensor order', () => {
    const v = { ...modbusTwin(), realDevice: false, writableSensors: ['rpm', 'temperature'] }
    expect(equipmentInput(v).writableSensors).toEqual([])
    expect(equipmentInput({ ...v, communicationProtocol: 'OPC-UA' }).writableSensors).toEqual(['temperature', 'rpm'])
    expect(equipmentInput({ ...v, communicationProtocol: 'OPC-UA', realDevice: true }).writableSensors).toEqual([])
  })
})

describe('API → form', () => {
  it('a stored twin with a connection comes back as typed, the password never', () => {
    const stored = equipmentSchema.parse(
      answers.equipment({
        connection: {
          address: '10.0.0.9:502',
          unitId: 4,
          intervalMs: 500,
          timeoutMs: 1500,
          hasPassword: false,
          points: [{ sensor: 'voltage', register: 8, registerType: 'input', dataType: 'uint32', wordOrder: 'low-first', scale: 0.1, offset: -2 }],
        },
        writableSensors: [],
      }),
    )
    const v = equipmentValues(stored)
    expect(v.realDevice).toBe(true)
    expect(v.maintenanceSchedule).toEqual({ intervalDays: '365', tasks: [{ task: 'Infrared scan of breakers', frequency: 'annual', trade: 'electrical' }] })
    expect(v.connection).toMatchObject({ address: '10.0.0.9:502', unitId: '4', intervalMs: '500', timeoutMs: '1500', password: '', hasPassword: false })
    expect(v.connection.points).toEqual([{ ...defaultPoint('voltage'), register: '8', registerType: 'input', dataType: 'uint32', wordOrder: 'low-first', scale: '0.1', offset: '-2', field: '' }])
    // And back again: what was stored is what is sent.
    expect(equipmentInput(v).connection).toEqual({
      address: '10.0.0.9:502',
      unitId: 4,
      intervalMs: 500,
      timeoutMs: 1500,
      points: [{ sensor: 'voltage', register: 8, registerType: 'input', dataType: 'uint32', wordOrder: 'low-first', scale: 0.1, offset: -2 }],
    })
  })

  it('a demo twin gets the connection defaults, its writable sensors kept', () => {
    const v = equipmentValues(equipmentSchema.parse(answers.equipment({ communicationProtocol: 'OPC-UA', connection: null, writableSensors: ['temperature'] })))
    expect(v.realDevice).toBe(false)
    expect(v.communicationProtocol).toBe('OPC-UA')
    expect(v.connection.points).toEqual([defaultPoint('temperature')])
    expect(v.writableSensors).toEqual(['temperature'])
  })
})

describe('numbers as typed', () => {
  it('whole numbers and decimals', () => {
    expect(parseInteger(' 12 ')).toBe(12)
    expect(parseInteger('1.5')).toBeNull()
    expect(parseInteger('')).toBeNull()
    expect(parseDecimal('-0.5')).toBe(-0.5)
    expect(parseDecimal('2e-3')).toBe(0.002)
    expect(parseDecimal('.5')).toBe(0.5)
    expect(parseDecimal('abc')).toBeNull()
    expect(parseDecimal('')).toBeNull()
  })
})

describe('validation, each problem at its field', () => {
  it('a valid twin has none', () => {
    expect(equipmentProblems(modbusTwin())).toEqual([])
  })

  it('the twin’s own fields, as twin.Definition checks them', () => {
    const v = modbusTwin()
    expect(
      problems({ ...v, name: '  ', manufacturer: 'x'.repeat(121), model: '', supportedTradeTypes: [], maintenanceSchedule: { intervalDays: '0', tasks: [{ task: '', frequency: 'every 3 years', trade: '' }] } }),
    ).toEqual({
      name: 'Name is required.',
      manufacturer: 'Manufacturer must be at most 120 characters.',
      model: 'Model is required.',
      supportedTradeTypes: 'Choose at least one trade.',
      'maintenanceSchedule.intervalDays': 'Interval must be from 1 to 3650.',
      'maintenanceSchedule.tasks.0.task': 'Task is required.',
      'maintenanceSchedule.tasks.0.frequency': 'Frequency must be one of daily, weekly, monthly, quarterly, semi-annual, annual, triennial.',
      'maintenanceSchedule.tasks.0.trade': 'Trade is required.',
    })
    expect(problems({ ...v, type: 'Booster Pump' })).toEqual({ type: 'Type must be lower-case words joined by hyphens, such as booster-pump.' })
  })

  it('trades are checked against the catalog’s once it is known', () => {
    const v = { ...modbusTwin(), supportedTradeTypes: ['electrical', 'lineworkers'] }
    expect(problems(v)).toEqual({})
    expect(Object.fromEntries(equipmentProblems(v, ['electrical', 'plumbing']).map((p) => [p.path, p.message]))).toEqual({
      supportedTradeTypes: 'lineworkers is not a trade of the catalog; clear it.',
    })
    const task = { ...v, supportedTradeTypes: ['electrical'], maintenanceSchedule: { intervalDays: '30', tasks: [{ task: 'Check', frequency: 'monthly', trade: 'wind' }] } }
    expect(equipmentProblems(task, ['electrical'])).toEqual([{ path: 'maintenanceSchedule.tasks.0.trade', message: 'wind is not a trade of the catalog.' }])
  })

  it('the connection is checked only when it is sent', () => {
    const v = { ...modbusTwin(), connection: { ...modbusTwin().connection, address: '' } }
    expect(problems(v)).toEqual({ 'connection.address': 'Address is required.' })
    expect(problems({ ...v, realDevice: false })).toEqual({})
  })

  it('Modbus: address, unit id, interval, timeout, registers by data type, scale, duplicate sensors', () => {
    const base = modbusTwin()
    const v: EquipmentFormValues = {
      ...base,
      connection: {
        ...base.connection,
        address: '10.20.1.15',
        unitId: '256',
        intervalMs: '99',
        timeoutMs: 'x',
        points: [
          { ...defaultPoint('temperature'), register: '65535' },
          { ...defaultPoint('temperature'), register: '65535', dataType: 'uint16', scale: '0' },
          { ...defaultPoint('pressure'), register: '-1', scale: 'big', offset: 'small' },
        ],
      },
    }
    expect(problems(v)).toEqual({
      'connection.address': 'Address must be host:port: missing port in address.',
      'connection.unitId': 'Unit id must be from 0 to 255.',
      'connection.intervalMs': 'Interval must be from 100 to 3600000.',
      'connection.timeoutMs': 'Timeout must be a whole number.',
      'connection.points.0.register': 'Register must be from 0 to 65534.',
      'connection.points.1.sensor': 'Temperature is mapped twice.',
      'connection.points.1.scale': 'Scale must not be 0.',
      'connection.points.2.register': 'Register must be from 0 to 65534.',
      'connection.points.2.scale': 'Scale must be a number.',
      'connection.points.2.offset': 'Offset must be a number.',
    })
  })

  it('OPC UA: endpoint URL, security pairs, a password needs a username, node ids', () => {
    const base = modbusTwin()
    const v: EquipmentFormValues = {
      ...base,
      communicationProtocol: 'OPC-UA',
      connection: { ...base.connection, address: 'plc:4840', securityPolicy: 'Basic256Sha256', securityMode: 'None', password: 'x', points: [{ ...defaultPoint('temperature'), nodeId: 'Temperature' }] },
    }
    expect(problems(v)).toEqual({
      'connection.address': 'Address must be a URL opc.tcp://host:port.',
      'connection.securityMode': 'Security mode must be None exactly when the security policy is None.',
      'connection.username': 'Username is required with a password.',
      'connection.points.0.nodeId': 'Node id must be a node id such as ns=2;s=Temperature or ns=3;i=1001.',
    })
  })

  it('EtherNet/IP: CIP path and tags; MQTT: topic and payload keys; no points at all', () => {
    const base = modbusTwin()
    expect(problems({ ...base, communicationProtocol: 'EtherNet/IP', connection: { ...base.connection, cipPath: '1', points: [defaultPoint('rpm')] } })).toEqual({
      'connection.cipPath': 'CIP path must be port,link pairs such as 1,0.',
      'connection.points.0.tag': 'Tag must be a controller tag such as Line1_Temp or Motor.Speed[2].',
    })
    expect(problems({ ...base, communicationProtocol: 'MQTT', connection: { ...base.connection, address: 'tcp://b:1883', topic: 'a/#', points: [{ ...defaultPoint('rpm'), field: '' }] } })).toEqual({
      'connection.topic': 'Topic is required: 1 to 200 characters without wildcards.',
      'connection.points.0.field': "Field must name the payload's key, 1 to 64 characters.",
    })
    expect(problems({ ...base, connection: { ...base.connection, points: [] } })).toEqual({ 'connection.points': 'Map at least one sensor.' })
  })

  it('the zod schema reports the same problems at the same paths, for the resolver', () => {
    const base = modbusTwin()
    const result = equipmentFormSchema().safeParse({ ...base, name: '', connection: { ...base.connection, points: [{ ...defaultPoint('temperature'), register: '70000' }] } })
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['name', 'Name is required.'],
      ['connection.points.0.register', 'Register must be from 0 to 65534.'],
    ])
    expect(equipmentFormSchema().safeParse(base).success).toBe(true)
  })
})
