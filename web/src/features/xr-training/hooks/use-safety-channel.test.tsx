import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderHook, waitFor } from '@testing-library/react'
import * as toasts from '@/hooks/use-toast'
import { FakeSocket } from '@/test/fake-socket'
import { useSafetyChannel } from './use-safety-channel'

beforeEach(() => {
  FakeSocket.reset({ opensItself: true })
  vi.stubGlobal('WebSocket', FakeSocket)
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const at = '2026-12-07T10:00:00Z'
const alert = { id: 7, userId: 'lena', alertType: 'help', description: 'Need assistance', createdAt: at }
const ack = { ...alert, acknowledgement: { userId: 'ivan', displayName: 'Ivan Instructor', at: '2026-12-07T10:01:00Z' } }

async function channelOf(userId: string) {
  const toast = vi.spyOn(toasts, 'toast')
  const hook = renderHook(() => useSafetyChannel(userId))
  await waitFor(() => expect(FakeSocket.last().readyState).toBe(1))
  FakeSocket.last().receive({ type: 'safety_alert', timestamp: at, payload: alert })
  FakeSocket.last().receive({ type: 'safety_alert_ack', timestamp: at, payload: ack })
  return { hook, toast }
}

describe('useSafetyChannel: acknowledgements', () => {
  it('marks the alert and tells the person who raised it', async () => {
    const { hook, toast } = await channelOf('lena')
    await waitFor(() => expect(hook.result.current.alerts[0].acknowledged).toEqual({ by: 'Ivan Instructor', at: '2026-12-07T10:01:00Z' }))
    expect(toast).toHaveBeenCalledWith({ title: 'Your safety alert was acknowledged', description: 'Ivan Instructor has it in hand.' })
  })

  it('marks it for everyone else without telling them it was theirs', async () => {
    const { hook, toast } = await channelOf('otto')
    await waitFor(() => expect(hook.result.current.alerts[0].acknowledged?.by).toBe('Ivan Instructor'))
    expect(toast).not.toHaveBeenCalled()
  })
})
