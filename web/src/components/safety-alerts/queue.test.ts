import { describe, expect, it } from 'vitest'
import { acknowledge, alertFromMessage, enqueue, safetyAlertText, type SafetyAlert } from '@/components/safety-alerts/queue'

const alert = (key: string, description = key): SafetyAlert => ({ key, alertType: 'general', description, at: '2026-01-01T10:00:00Z' })

describe('safety alert queue', () => {
  it('says exactly what the spec says', () => {
    expect(safetyAlertText('Need assistance')).toBe('Safety Alert: Need assistance')
  })

  it('keeps every alert, oldest first, however many arrive', () => {
    let q: SafetyAlert[] = []
    for (let i = 0; i < 50; i++) q = enqueue(q, alert(`a${i}`))
    expect(q).toHaveLength(50)
    expect(q[0].key).toBe('a0')
    expect(q[49].key).toBe('a49')
  })

  it('shows the next alert only once the current one is acknowledged', () => {
    let q = enqueue(enqueue(enqueue([], alert('a')), alert('b')), alert('c'))
    expect(q[0].key).toBe('a')
    q = acknowledge(q, 'a')
    expect(q.map((a) => a.key)).toEqual(['b', 'c'])
    // Acknowledging one that is not shown (the in-scene button racing the dialog) removes only that one.
    q = acknowledge(q, 'c')
    expect(q.map((a) => a.key)).toEqual(['b'])
    q = acknowledge(acknowledge(q, 'b'), 'b')
    expect(q).toEqual([])
  })

  it('does not queue the same stored alert twice', () => {
    const m = { type: 'safety_alert', timestamp: '2026-01-01T10:00:00Z', payload: { id: 7, alertType: 'help', description: 'Need assistance' } }
    let q = enqueue([], alertFromMessage(m))
    q = enqueue(q, alertFromMessage(m))
    expect(q).toHaveLength(1)
  })

  it('reads the server’s relayed alert, and gives messages without an id keys of their own', () => {
    const stored = alertFromMessage({
      type: 'safety_alert',
      timestamp: '2026-01-01T10:00:01Z',
      payload: { id: 3, alertType: 'emergency', description: 'Emergency stop requested', displayName: 'Guest 1a2b', createdAt: '2026-01-01T10:00:00Z' },
    })
    expect(stored).toEqual({ key: 'alert-3', alertType: 'emergency', description: 'Emergency stop requested', from: 'Guest 1a2b', at: '2026-01-01T10:00:00Z' })
    const a = alertFromMessage({ type: 'safety_alert', timestamp: 't', payload: { description: 'x' } })
    const b = alertFromMessage({ type: 'safety_alert', timestamp: 't', payload: { description: 'x' } })
    expect(a.key).not.toBe(b.key)
    expect(enqueue(enqueue([], a), b)).toHaveLength(2)
    expect(alertFromMessage({ type: 'safety_alert', timestamp: 't' })).toMatchObject({ alertType: 'general', description: '', at: 't' })
  })
})
