import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ReactNode } from 'react'
import { renderHook, waitFor } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import {
  connectionTestResultSchema,
  dataStreamsQueryOptions,
  dataStreamsSchema,
  equipmentAlertsSchema,
  equipmentListSchema,
  protocolExchangeSchema,
  sensorDataResponseSchema,
  twinKeys,
  useCreateEquipment,
  useRetireEquipment,
  useTestConnection,
  useUpdateEquipment,
  useUpdateSensors,
  type EquipmentInput,
} from '@/api/twin'
import { createQueryClient } from '@/lib/api'
import { fakeApi } from '@/test/fake-api'
import * as answers from '@/test/server-answers'

let warn: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('digital twin answers', () => {
  it("are read whole: equipment, alerts, data streams, a sensor update and a protocol exchange", () => {
    expect(equipmentListSchema.parse([answers.equipment()])).toEqual([answers.equipment()])
    expect(equipmentAlertsSchema.parse([answers.equipmentAlert()])).toEqual([answers.equipmentAlert()])
    expect(dataStreamsSchema.parse([answers.dataStream()])).toEqual([answers.dataStream()])
    expect(sensorDataResponseSchema.parse({ equipment: answers.equipment(), alerts: [answers.equipmentAlert()] })).toEqual({
      equipment: answers.equipment(),
      alerts: [answers.equipmentAlert()],
    })
    expect(protocolExchangeSchema.parse(answers.protocolExchange())).toEqual(answers.protocolExchange())
  })

  it('a twin with a status outside the spec still loads', () => {
    expect(equipmentListSchema.parse([answers.equipment({ status: 'exploded' })])[0].status).toBe('exploded')
  })

  it('a broken item is left out of each list and the others stay', () => {
    expect(equipmentListSchema.parse([answers.equipment({ name: null }), answers.equipment({ id: 'b' })]).map((e) => e.id)).toEqual(['b'])
    expect(equipmentAlertsSchema.parse([answers.equipmentAlert({ level: undefined }), answers.equipmentAlert({ id: 2 })]).map((a) => a.id)).toEqual(['2'])
    const streams = dataStreamsSchema.parse([answers.dataStream({ value: 'hot' }), answers.dataStream({ id: 'chlr-1:pressure', history: [{ value: 'x' }, { value: 1 }] })])
    expect(streams.map((s) => s.id)).toEqual(['chlr-1:pressure'])
    expect(streams[0].history).toEqual([{ value: 1 }])
    expect(warn).toHaveBeenCalledTimes(4)
  })

  it('streams are not fetched while no twin is selected', () => {
    expect(dataStreamsQueryOptions(null).enabled).toBe(false)
    expect(dataStreamsQueryOptions('chlr-1').queryKey).toEqual(twinKeys.dataStreams('chlr-1'))
  })
})

describe('Update Sensors', () => {
  it('puts the updated twin in the cached list at once, then reads the list, alerts and streams again', async () => {
    const updated = answers.equipment({ sensorData: { temperature: { value: 80, unit: '°C' } }, alertLevel: 'critical' })
    const fetchMock = fakeApi({ 'POST /api/digital-twin/equipment/pnl-lp2a/sensor-data': { body: { equipment: updated, alerts: [] } } })
    const client = createQueryClient()
    client.setQueryData(twinKeys.equipment, [answers.equipment(), answers.equipment({ id: 'other' })])
    client.setQueryData(twinKeys.alerts, [])
    client.setQueryData(twinKeys.dataStreams('pnl-lp2a'), [])
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>
    const { result } = renderHook(() => useUpdateSensors(), { wrapper })
    await result.current.mutateAsync({ id: 'pnl-lp2a', sensorData: { temperature: 80, timestamp: '2026-11-23T04:00:00Z' } })
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual({ sensorData: { temperature: 80, timestamp: '2026-11-23T04:00:00Z' } })
    expect(client.getQueryData(twinKeys.equipment)).toEqual([updated, answers.equipment({ id: 'other' })])
    await waitFor(() => expect(client.getQueryState(twinKeys.alerts)?.isInvalidated).toBe(true))
    expect(client.getQueryState(twinKeys.dataStreams('pnl-lp2a'))?.isInvalidated).toBe(true)
  })
})

describe('twins as data', () => {
  const connection = {
    address: '10.20.1.15:502',
    unitId: 1,
    intervalMs: 1000,
    timeoutMs: 2000,
    points: [{ sensor: 'temperature', register: 0, registerType: 'holding', dataType: 'float32', wordOrder: 'high-first', scale: 1, offset: 0 }],
  }
  const input: EquipmentInput = {
    name: 'Panel LP-9',
    manufacturer: 'Square D',
    model: 'NF',
    serialNumber: 'SQD-9',
    type: 'panelboard',
    supportedTradeTypes: ['electrical'],
    communicationProtocol: 'Modbus TCP',
    maintenanceSchedule: { intervalDays: 365, tasks: [] },
    connection,
    writableSensors: [],
  }

  function setup(routes: Parameters<typeof fakeApi>[0]) {
    const fetchMock = fakeApi(routes)
    const client = createQueryClient()
    client.setQueryData(twinKeys.equipment, [answers.equipment(), answers.equipment({ id: 'other' })])
    client.setQueryData(twinKeys.marketingEquipment, [])
    client.setQueryData(twinKeys.alerts, [])
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>
    return { fetchMock, client, wrapper }
  }

  it('a twin with a connection and writable sensors is read whole; the password is never expected', () => {
    const twin = answers.equipment({ connection: { ...connection, hasPassword: true }, writableSensors: ['temperature'] })
    expect(equipmentListSchema.parse([twin])).toEqual([twin])
    expect(equipmentListSchema.parse([answers.equipment({ connection: null, writableSensors: [] })])[0].connection).toBeNull()
  })

  it('create posts the body and reads every list of twins again', async () => {
    const created = answers.equipment({ id: 'eq-1', name: 'Panel LP-9', connection })
    const { fetchMock, client, wrapper } = setup({ 'POST /api/digital-twin/equipment': { status: 201, body: created } })
    const { result } = renderHook(() => useCreateEquipment(), { wrapper })
    expect(await result.current.mutateAsync(input)).toEqual(created)
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual(input)
    await waitFor(() => expect(client.getQueryState(twinKeys.equipment)?.isInvalidated).toBe(true))
    expect(client.getQueryState(twinKeys.marketingEquipment)?.isInvalidated).toBe(true)
    expect(client.getQueryState(twinKeys.alerts)?.isInvalidated).toBe(true)
  })

  it('edit puts to the twin’s path and replaces it in the cached list', async () => {
    const updated = answers.equipment({ name: 'Panel LP-2A (renamed)' })
    const { fetchMock, client, wrapper } = setup({ 'PUT /api/digital-twin/equipment/pnl-lp2a': { body: updated } })
    const { result } = renderHook(() => useUpdateEquipment(), { wrapper })
    await result.current.mutateAsync({ id: 'pnl-lp2a', input })
    expect(fetchMock.mock.calls[0][1]?.method).toBe('PUT')
    expect(client.getQueryData(twinKeys.equipment)).toEqual([updated, answers.equipment({ id: 'other' })])
  })

  it('retire deletes the twin, which leaves the cached list at once', async () => {
    const { fetchMock, client, wrapper } = setup({ 'DELETE /api/digital-twin/equipment/pnl-lp2a': { status: 204 } })
    const { result } = renderHook(() => useRetireEquipment(), { wrapper })
    await result.current.mutateAsync('pnl-lp2a')
    expect(fetchMock.mock.calls[0][1]?.method).toBe('DELETE')
    expect(client.getQueryData(twinKeys.equipment)).toEqual([answers.equipment({ id: 'other' })])
  })

  it('a connection test sends the connection and reads each point’s reading or error', async () => {
    const answer = { ok: false, durationMs: 12.5, error: 'pressure: illegal data address', points: [{ sensor: 'temperature', raw: 21.5, value: 21.5, unit: '°C' }, { sensor: 'pressure', unit: 'kPa', error: 'illegal data address' }] }
    const { fetchMock, wrapper } = setup({ 'POST /api/digital-twin/connection-test': { body: answer } })
    const { result } = renderHook(() => useTestConnection(), { wrapper })
    expect(await result.current.mutateAsync({ communicationProtocol: 'Modbus TCP', connection, equipmentId: 'pnl-lp2a' })).toEqual(answer)
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual({ communicationProtocol: 'Modbus TCP', connection, equipmentId: 'pnl-lp2a' })
    expect(connectionTestResultSchema.parse({ ok: true, durationMs: 3, points: null }).points).toEqual([])
  })
})
