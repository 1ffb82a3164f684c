import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ReactNode } from 'react'
import { renderHook, waitFor } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import {
  dataStreamsQueryOptions,
  dataStreamsSchema,
  equipmentAlertsSchema,
  equipmentListSchema,
  protocolExchangeSchema,
  sensorDataResponseSchema,
  twinKeys,
  useUpdateSensors,
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
