import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { RealtimeClient, realtimeUrl, type RealtimeStatus } from '@/lib/realtime'
import { FakeSocket } from '@/test/fake-socket'

function makeClient() {
  const client = new RealtimeClient({ url: 'ws://test/ws', createSocket: (url) => new FakeSocket(url) as unknown as WebSocket })
  const statuses: RealtimeStatus[] = []
  client.onStatus((s) => statuses.push(s))
  return { client, statuses }
}

const last = () => FakeSocket.last()

beforeEach(() => {
  FakeSocket.reset()
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('realtimeUrl', () => {
  it('uses ws: on http pages and wss: on https pages, on the same host', () => {
    expect(realtimeUrl({ protocol: 'http:', host: '127.0.0.1:8080' })).toBe('ws://127.0.0.1:8080/ws')
    expect(realtimeUrl({ protocol: 'https:', host: 'xr.example' })).toBe('wss://xr.example/ws')
  })
})

describe('RealtimeClient', () => {
  it('goes disconnected → connecting → connected', () => {
    const { client, statuses } = makeClient()
    expect(client.getStatus()).toBe('disconnected')
    client.connect()
    expect(client.getStatus()).toBe('connecting')
    expect(last().url).toBe('ws://test/ws')
    last().open()
    expect(statuses).toEqual(['connecting', 'connected'])
  })

  it('sends the envelope with type, payload, sessionId, userId and timestamp', () => {
    const { client } = makeClient()
    client.setUserId('u1')
    client.setSessionId('s1')
    client.connect()
    last().open()
    expect(client.sendSafetyAlert({ alertType: 'help', description: 'Need assistance' })).toBe(true)
    expect(client.sendSessionUpdate({ position: { x: 1, y: 2, z: 3 }, interactions: [] })).toBe(true)
    expect(client.sendCollaborationUpdate({ action: 'point', data: { at: 'panel' } })).toBe(true)
    const sent = last().sent.map((s) => JSON.parse(s))
    expect(sent[0]).toEqual({
      type: 'safety_alert',
      payload: { alertType: 'help', description: 'Need assistance' },
      sessionId: 's1',
      userId: 'u1',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    })
    expect(sent.map((m) => m.type)).toEqual(['safety_alert', 'xr_session_update', 'collaboration_update'])
  })

  it('returns false with a console warning when sending while not connected', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { client } = makeClient()
    expect(client.send('safety_alert', {})).toBe(false)
    client.connect() // still connecting
    expect(client.send('safety_alert', {})).toBe(false)
    expect(warn).toHaveBeenCalledTimes(2)
    expect(last().sent).toEqual([])
  })

  it('delivers incoming messages to subscribers of their type only, until they unsubscribe', () => {
    const { client } = makeClient()
    const alerts = vi.fn()
    const updates = vi.fn()
    const stop = client.subscribe('safety_alert', alerts)
    client.subscribe('xr_session_update', updates)
    client.connect()
    last().open()
    last().receive({ type: 'safety_alert', payload: { description: 'Gas leak' }, timestamp: 't' })
    expect(alerts).toHaveBeenCalledWith(expect.objectContaining({ payload: { description: 'Gas leak' } }))
    expect(updates).not.toHaveBeenCalled()
    stop()
    last().receive({ type: 'safety_alert', payload: { description: 'again' }, timestamp: 't' })
    expect(alerts).toHaveBeenCalledTimes(1)
  })

  it('ignores a message that is not JSON and keeps going', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { client } = makeClient()
    const alerts = vi.fn()
    client.subscribe('safety_alert', alerts)
    client.connect()
    last().open()
    last().receive('{not json')
    last().receive({ type: 'safety_alert', payload: {}, timestamp: 't' })
    expect(alerts).toHaveBeenCalledTimes(1)
    expect(client.getStatus()).toBe('connected')
  })

  it('reconnects 3 s after a drop and resets the attempt count once connected', () => {
    const { client } = makeClient()
    client.connect()
    last().open()
    last().drop()
    expect(client.getStatus()).toBe('disconnected')
    vi.advanceTimersByTime(2999)
    expect(FakeSocket.all).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(FakeSocket.all).toHaveLength(2)
    last().open()
    expect(client.getStatus()).toBe('connected')
    // A fresh budget of 5 attempts after a successful reconnect.
    for (let i = 0; i < 5; i++) {
      last().drop()
      vi.advanceTimersByTime(3000)
    }
    expect(FakeSocket.all).toHaveLength(7)
  })

  it('gives up after 5 failed attempts, 3 s apart, and ends in error', () => {
    const { client, statuses } = makeClient()
    client.connect()
    last().drop() // the first connection fails
    for (let attempt = 1; attempt <= 5; attempt++) {
      vi.advanceTimersByTime(3000)
      expect(FakeSocket.all).toHaveLength(1 + attempt)
      last().drop()
    }
    expect(client.getStatus()).toBe('error')
    vi.advanceTimersByTime(60_000)
    expect(FakeSocket.all).toHaveLength(6)
    expect(statuses[statuses.length - 1]).toBe('error')
    // connect() starts again after giving up.
    client.connect()
    expect(FakeSocket.all).toHaveLength(7)
  })

  it('does not reconnect after disconnect()', () => {
    const { client } = makeClient()
    client.connect()
    last().open()
    client.disconnect()
    expect(last().closed?.code).toBe(1000)
    expect(client.getStatus()).toBe('disconnected')
    vi.advanceTimersByTime(30_000)
    expect(FakeSocket.all).toHaveLength(1)
  })

  it('does not open a second socket while one is open or opening', () => {
    const { client } = makeClient()
    client.connect()
    client.connect()
    last().open()
    client.connect()
    expect(FakeSocket.all).toHaveLength(1)
  })
})
