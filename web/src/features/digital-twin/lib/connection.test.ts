import { describe, expect, it } from 'vitest'
import { byteLength, hostPortProblem, isAddressUrl, isCipPath, isNodeId, isTag, isTopic, maxRegister, registersOf } from './connection'

// The server's checks (internal/twin/connection.go), case by case.
describe('connection checks', () => {
  it('host:port as net.SplitHostPort and the server read it', () => {
    for (const ok of ['10.20.1.15:502', 'plc-7.plant.local:44818', '[::1]:502', 'localhost:1']) expect(hostPortProblem(ok), ok).toBeNull()
    expect(hostPortProblem('10.20.1.15')).toBe('missing port in address')
    expect(hostPortProblem('::1:502')).toBe('too many colons in address')
    expect(hostPortProblem(':502')).toBe('bad host')
    expect(hostPortProblem('my host:502')).toBe('bad host')
    expect(hostPortProblem('a/b:502')).toBe('bad host')
    expect(hostPortProblem('plc:0')).toBe('port must be 1 to 65535')
    expect(hostPortProblem('plc:65536')).toBe('port must be 1 to 65535')
    expect(hostPortProblem('plc:http')).toBe('port must be 1 to 65535')
  })

  it('an OPC UA endpoint and an MQTT broker are URLs of their scheme, with a port and no user', () => {
    expect(isAddressUrl('opc.tcp://10.20.1.40:4840', 'opc.tcp')).toBe(true)
    expect(isAddressUrl('opc.tcp://plc:4840/UA/Server', 'opc.tcp')).toBe(true)
    expect(isAddressUrl('OPC.TCP://plc:4840', 'opc.tcp')).toBe(true)
    expect(isAddressUrl('opc.tcp://plc', 'opc.tcp')).toBe(false)
    expect(isAddressUrl('tcp://plc:4840', 'opc.tcp')).toBe(false)
    expect(isAddressUrl('opc.tcp://user@plc:4840', 'opc.tcp')).toBe(false)
    expect(isAddressUrl('tcp://broker:1883', 'tcp')).toBe(true)
    expect(isAddressUrl('mqtt://broker:1883', 'tcp')).toBe(false)
    expect(isAddressUrl('broker:1883', 'tcp')).toBe(false)
  })

  it('node ids, tags, CIP paths and topics by the server’s patterns', () => {
    for (const ok of ['ns=2;s=Temperature', 'ns=3;i=1001', 'i=85', 'ns=1;g=09087e75-8e5e-499b-954f-f2a9603db28a', 'ns=1;b=M/RbKBsRVkePCePcx24oRA==']) expect(isNodeId(ok), ok).toBe(true)
    for (const bad of ['', 'Temperature', 'ns=x;s=T', 'ns=2;s=', 'ns=2;i=12a']) expect(isNodeId(bad), bad).toBe(false)
    for (const ok of ['Line1_Temp', 'Motor.Speed[2]', '_x', 'Program.Sub.Tag[10].Field']) expect(isTag(ok), ok).toBe(true)
    for (const bad of ['', '1Line', 'Motor.', 'a b', 'Motor[x]']) expect(isTag(bad), bad).toBe(false)
    expect(isCipPath('1,0')).toBe(true)
    expect(isCipPath('1,0,2,3')).toBe(true)
    expect(isCipPath('1')).toBe(false)
    expect(isCipPath('1,0,2')).toBe(false)
    expect(isTopic('plant/line1/ahu-3')).toBe(true)
    expect(isTopic('plant/+/ahu')).toBe(false)
    expect(isTopic('plant/#')).toBe(false)
    expect(isTopic('')).toBe(false)
    expect(isTopic('x'.repeat(201))).toBe(false)
  })

  it('32-bit types span two registers, so the last first register is one lower', () => {
    expect(registersOf('float32')).toBe(2)
    expect(registersOf('int16')).toBe(1)
    expect(maxRegister('uint32')).toBe(65534)
    expect(maxRegister('uint16')).toBe(65535)
  })

  it('counts bytes as Go’s len does', () => {
    expect(byteLength('°C')).toBe(3)
  })
})
