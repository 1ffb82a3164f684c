import { describe, expect, it } from 'vitest'
import type { Equipment, EquipmentAlert } from '@/api/twin'
import { compareAlerts, replaceEquipment, replaceTwinAlerts } from './live'

const twin = (id: string, temperature: number) => ({ id, name: id, sensorData: { temperature: { value: temperature, unit: '°C' } } }) as Equipment
const alert = (equipmentId: string, level: string, timestamp: string) => ({ id: `${equipmentId}:${level}:${timestamp}`, equipmentId, level, timestamp }) as EquipmentAlert

describe('replaceEquipment', () => {
  it('replaces the twin in place and leaves the others, and a twin the list lacks out', () => {
    const list = [twin('a', 1), twin('b', 2)]
    expect(replaceEquipment(list, twin('b', 9))).toEqual([twin('a', 1), twin('b', 9)])
    expect(replaceEquipment(list, twin('c', 3))).toEqual(list)
  })

  it("keeps the device details its staff's list holds when an update comes as anyone may watch it", () => {
    const connection = { address: 'opc.tcp://10.20.2.7:4840', points: [] }
    const full = { ...twin('b', 2), realDevice: true, connection, connectionParameters: { device: 'connected', endpointUrl: connection.address } } as Equipment
    const watched = { ...twin('b', 9), realDevice: true, connection: null, connectionParameters: { device: 'connected' } } as Equipment
    expect(replaceEquipment([full], watched)).toEqual([{ ...watched, connection, connectionParameters: full.connectionParameters }])
    // A list that never had them (anyone else's) takes the update as it is; so does a twin back on its demo device.
    expect(replaceEquipment([{ ...full, connection: null }], watched)).toEqual([watched])
    const demo = { ...twin('b', 9), realDevice: false, connection: null } as Equipment
    expect(replaceEquipment([full], demo)).toEqual([demo])
  })
})

describe('replaceTwinAlerts', () => {
  it("swaps one twin's alerts for its new ones and keeps the server's order: most severe, then newest", () => {
    const list = [alert('a', 'critical', '2026-11-20T08:00:00Z'), alert('b', 'warning', '2026-11-20T09:00:00Z'), alert('a', 'warning', '2026-11-20T07:00:00Z')]
    const next = replaceTwinAlerts(list, 'a', [alert('a', 'emergency', '2026-11-20T10:00:00Z'), alert('a', 'warning', '2026-11-20T10:00:00Z')])
    expect(next.map((x) => x.id)).toEqual(['a:emergency:2026-11-20T10:00:00Z', 'a:warning:2026-11-20T10:00:00Z', 'b:warning:2026-11-20T09:00:00Z'])
    expect(replaceTwinAlerts(list, 'a', []).map((x) => x.equipmentId)).toEqual(['b'])
  })

  it('ranks a level it does not know below the known ones', () => {
    expect(compareAlerts(alert('a', 'odd', '2026-11-20T10:00:00Z'), alert('b', 'warning', '2026-11-20T08:00:00Z'))).toBeGreaterThan(0)
  })
})
