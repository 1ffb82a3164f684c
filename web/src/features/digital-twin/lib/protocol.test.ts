import { describe, expect, it } from 'vitest'
import { defaultProtocolParams, hexDump, modbusBlock, parseHex, protocolKind, protocolRequestData } from './protocol'

describe('protocolKind', () => {
  it.each([
    ['Modbus TCP', 'modbus'],
    ['modbus-tcp', 'modbus'],
    ['OPC-UA', 'opcua'],
    ['OPC UA', 'opcua'],
    ['opcua', 'opcua'],
    ['MQTT', 'mqtt'],
    ['EtherNet/IP', 'ethernetip'],
    ['ethernet-ip', 'ethernetip'],
    ['BACnet', null],
    [undefined, null],
  ])('%s → %s', (value, kind) => {
    expect(protocolKind(value)).toBe(kind)
  })
})

describe('defaultProtocolParams', () => {
  it('falls back to a read that works on any device', () => {
    const p = defaultProtocolParams('pump-01')
    expect(protocolRequestData('modbus', p)).toEqual({ functionCode: 3, startAddress: 0, registerCount: 10 })
    expect(protocolRequestData('opcua', p)).toEqual({ nodeId: 'ns=1;s=Temperature' })
    expect(protocolRequestData('mqtt', p)).toEqual({ topic: 'journeyman/equipment/pump-01/test', qos: 1 })
    expect(protocolRequestData('ethernetip', p)).toEqual({ assembly: 100 })
  })

  it("takes the device's own connection parameters", () => {
    const p = defaultProtocolParams('x', { startAddress: 40, registerCount: 8, nodeId: 'ns=3;i=1001', topic: 'plant/x', qos: 0, tag: 'MotorSpeed' })
    expect(protocolRequestData('modbus', p)).toEqual({ functionCode: 3, startAddress: 40, registerCount: 8 })
    expect(protocolRequestData('opcua', p)).toEqual({ nodeId: 'ns=3;i=1001' })
    // Never the telemetry topic it names: Test Protocol publishes only to the test topic.
    expect(protocolRequestData('mqtt', p)).toEqual({ topic: 'journeyman/equipment/x/test', qos: 0 })
    expect(protocolRequestData('ethernetip', p)).toEqual({ tag: 'MotorSpeed' })
  })
})

describe('hex', () => {
  it('parses spaced and unspaced hex', () => {
    expect(parseHex('00 01 0a FF')).toEqual([0, 1, 10, 255])
    expect(parseHex('0001')).toEqual([0, 1])
    expect(parseHex('abc')).toBeNull()
    expect(parseHex('zz')).toBeNull()
  })

  it('dumps 16 bytes a line with offsets and ASCII', () => {
    const hex = '000100000006010300000002' + '4142434445464748494a'
    expect(hexDump(hex).split('\n')).toEqual([
      '0000  00 01 00 00 00 06 01 03 00 00 00 02 41 42 43 44  ............ABCD',
      '0010  45 46 47 48 49 4a                                EFGHIJ',
    ])
  })

  it('leaves text that is not hex alone', () => {
    expect(hexDump('not hex')).toBe('not hex')
    expect(hexDump('')).toBe('')
  })
})

describe('modbusBlock', () => {
  it.each([
    [1, 2],
    [2, 4],
    [3, 14],
    [4, 5],
  ])('function code %i reads its whole block of %i from address 0', (code, count) => {
    expect(modbusBlock(code)).toMatchObject({ startAddress: 0, registerCount: count })
  })

  it('knows no other function code', () => {
    expect(modbusBlock(5)).toBeNull()
    expect(modbusBlock(16)).toBeNull()
  })
})

describe('defaults of the seeded devices', () => {
  it('reads what each protocol names in its connection parameters', () => {
    const modbus = defaultProtocolParams('chlr-1', { functionCode: 3, startAddress: 0, registerCount: 14, unitId: 2 })
    expect(protocolRequestData('modbus', modbus)).toEqual({ functionCode: 3, startAddress: 0, registerCount: 14 })
    const opc = defaultProtocolParams('xfmr-t1', { nodeIds: ['ns=1;s=Temperature', 'ns=1;s=Pressure'] })
    expect(protocolRequestData('opcua', opc)).toEqual({ nodeId: 'ns=1;s=Temperature' })
    const enip = defaultProtocolParams('weld-cell-4', { assemblies: [100, 101], assembly: 100 })
    expect(protocolRequestData('ethernetip', enip)).toEqual({ assembly: 100 })
  })
})
