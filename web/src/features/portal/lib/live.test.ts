import { describe, expect, it } from 'vitest'
import type { PortalLiveSession } from '@/api/portal'
import type { SafetyAlert } from '@/api/realtime'
import * as answers from '@/test/portal-answers'
import {
  acknowledgeAlert,
  addAlert,
  alertAnnouncement,
  alertTypeLabel,
  checkCounts,
  formatAgo,
  liveChecksSummary,
  liveMessageFormSchema,
  stepLabel,
  stopFormSchema,
  upsertLiveSession,
} from './live'

const live = (extra: Partial<PortalLiveSession> = {}) => answers.liveSession(extra) as PortalLiveSession
const alert = (extra: Partial<SafetyAlert> = {}) => answers.liveAlert(extra) as SafetyAlert

describe('upsertLiveSession', () => {
  it('adds a session that starts, most recently updated first', () => {
    const a = live({ sessionId: 'a', updatedAt: '2026-11-23T10:00:00Z' })
    const b = live({ sessionId: 'b', updatedAt: '2026-11-23T10:05:00Z' })
    expect(upsertLiveSession([a], b).map((s) => s.sessionId)).toEqual(['b', 'a'])
    expect(upsertLiveSession(undefined, a)).toEqual([a])
  })

  it('replaces a session with its newer self and moves it up', () => {
    const a = live({ sessionId: 'a', updatedAt: '2026-11-23T10:00:00Z', stepsDone: 0 })
    const b = live({ sessionId: 'b', updatedAt: '2026-11-23T10:05:00Z' })
    const a2 = { ...a, updatedAt: '2026-11-23T10:06:00Z', stepsDone: 1 }
    const next = upsertLiveSession([b, a], a2)
    expect(next.map((s) => s.sessionId)).toEqual(['a', 'b'])
    expect(next[0].stepsDone).toBe(1)
  })

  it('keeps what it holds when an older update arrives late', () => {
    const held = live({ sessionId: 'a', updatedAt: '2026-11-23T10:06:00Z', stepsDone: 2 })
    const stale = { ...held, updatedAt: '2026-11-23T10:05:00Z', stepsDone: 1 }
    expect(upsertLiveSession([held], stale)).toEqual([held])
  })

  it('drops a session that ended', () => {
    const a = live({ sessionId: 'a' })
    const b = live({ sessionId: 'b' })
    expect(upsertLiveSession([a, b], { ...a, status: 'ended', outcome: 'failed' }).map((s) => s.sessionId)).toEqual(['b'])
    expect(upsertLiveSession([b], { ...a, status: 'ended' }).map((s) => s.sessionId)).toEqual(['b'])
  })
})

describe('alerts', () => {
  const ack = { userId: 'i1', displayName: 'Ivan Instructor', at: '2026-11-23T10:01:00Z' }

  it('puts a new alert on top and does not add one twice', () => {
    const old = alert({ id: 1 })
    const fresh = alert({ id: 2 })
    expect(addAlert([old], fresh).map((a) => a.id)).toEqual([2, 1])
    expect(addAlert([fresh, old], fresh).map((a) => a.id)).toEqual([2, 1])
  })

  it('keeps an acknowledgement when the alert is relayed again without one', () => {
    const held = alert({ id: 1, acknowledgement: ack })
    expect(addAlert([held], alert({ id: 1 }))[0].acknowledgement).toEqual(ack)
  })

  it('acknowledges the alert it names where it stands, and adds none it does not hold', () => {
    const list = [alert({ id: 3 }), alert({ id: 2 }), alert({ id: 1 })]
    const next = acknowledgeAlert(list, alert({ id: 2, acknowledgement: ack }))
    expect(next.map((a) => a.id)).toEqual([3, 2, 1])
    expect(next[1].acknowledgement).toEqual(ack)
    expect(next[0].acknowledgement).toBeNull()
    expect(acknowledgeAlert(list, alert({ id: 99, acknowledgement: ack }))).toEqual(list)
  })

  it('announce who raised which alert', () => {
    expect(alertAnnouncement({ alertType: 'emergency', displayName: 'Lena Learner', description: 'Emergency stop requested' })).toBe(
      'Emergency alert from Lena Learner: Emergency stop requested',
    )
    expect(alertAnnouncement({ alertType: 'help', displayName: '', description: 'Need assistance' })).toBe('Help alert from someone: Need assistance')
    expect(alertTypeLabel('equipment')).toBe('Equipment')
    expect(alertTypeLabel('fire')).toBe('Fire')
  })
})

describe('stepLabel', () => {
  it('names the current step, 1-based, with its instruction', () => {
    expect(stepLabel({ step: { index: 2, total: 6, id: 'apply-lock', instruction: 'Apply your lock.' }, stepsTotal: 6 })).toBe('Step 3 of 6: Apply your lock.')
  })
  it('says when every step is done', () => {
    expect(stepLabel({ step: null, stepsTotal: 6 })).toBe('All steps done')
    expect(stepLabel({ step: null, stepsTotal: 0 })).toBe('No steps in this module')
  })
})

describe('safety checks so far', () => {
  it('counts and words them, leaving out what is none', () => {
    const checks = [{ status: 'passed' }, { status: 'passed' }, { status: 'skipped' }, { status: 'pending' }, { status: 'pending' }, { status: 'pending' }] as const
    expect(checkCounts(checks)).toEqual({ passed: 2, skipped: 1, pending: 3 })
    expect(liveChecksSummary(checks)).toBe('2 passed, 1 skipped, 3 to come')
    expect(liveChecksSummary([{ status: 'pending' }])).toBe('1 to come')
    expect(liveChecksSummary([])).toBe('None in this module')
  })
})

describe('formatAgo', () => {
  const now = Date.parse('2026-11-23T10:00:00Z')
  it('reads as a glance at a live list wants it', () => {
    expect(formatAgo('2026-11-23T09:59:55Z', now)).toBe('just now')
    expect(formatAgo('2026-11-23T10:00:05Z', now)).toBe('just now') // a clock ahead of ours
    expect(formatAgo('2026-11-23T09:59:18Z', now)).toBe('42 s ago')
    expect(formatAgo('2026-11-23T09:57:00Z', now)).toBe('3 min ago')
    expect(formatAgo('2026-11-23T08:55:00Z', now)).toBe('1 h 05 min ago')
    expect(formatAgo('not a date', now)).toBe('not a date')
  })
})

describe('the forms', () => {
  it('take a message of 1..500 characters once trimmed, counted as characters', () => {
    expect(liveMessageFormSchema.safeParse({ text: '  Check your lock  ' })).toEqual({ success: true, data: { text: 'Check your lock' } })
    expect(liveMessageFormSchema.safeParse({ text: '   ' }).error?.issues[0].message).toBe('Write the message first.')
    expect(liveMessageFormSchema.safeParse({ text: '🔒'.repeat(500) }).success).toBe(true)
    expect(liveMessageFormSchema.safeParse({ text: 'x'.repeat(501) }).error?.issues[0].message).toBe('The message must be at most 500 characters.')
  })
  it('take a stop without a reason, or with one of at most 500 characters', () => {
    expect(stopFormSchema.safeParse({ reason: '' }).success).toBe(true)
    expect(stopFormSchema.safeParse({ reason: 'x'.repeat(501) }).error?.issues[0].message).toBe('The reason must be at most 500 characters.')
  })
})
