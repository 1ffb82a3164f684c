import { describe, expect, it } from 'vitest'
import { foldAck, type ReceivedAlert } from './use-safety-channel'

const alerts: ReceivedAlert[] = [
  { key: '7', alertType: 'help', description: 'Need assistance', at: '2026-12-07T10:00:00Z' },
  { key: '6', alertType: 'emergency', description: 'Emergency stop requested', at: '2026-12-07T09:59:00Z' },
]

describe('foldAck', () => {
  it('marks the alert the acknowledgement names, with who and when', () => {
    const got = foldAck(alerts, { id: 6, userId: 'lena', acknowledgement: { displayName: 'Ivan Instructor', at: '2026-12-07T10:01:00Z' } })
    expect(got[1].acknowledged).toEqual({ by: 'Ivan Instructor', at: '2026-12-07T10:01:00Z' })
    expect(got[0].acknowledged).toBeUndefined()
  })

  it('leaves the list as it is for an alert it does not hold, or a message without an acknowledgement', () => {
    expect(foldAck(alerts, { id: 99, acknowledgement: { displayName: 'Ivan Instructor', at: '' } })).toEqual(alerts)
    expect(foldAck(alerts, { id: 7, acknowledgement: null })).toBe(alerts)
    expect(foldAck(alerts, undefined)).toBe(alerts)
  })
})
