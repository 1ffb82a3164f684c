import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { liveSessionsQueryOptions, liveSessionsSchema, recentSafetyAlertsQueryOptions, realtimeKeys, safetyAlertSchema, safetyAlertsSchema } from '@/api/realtime'
import * as answers from '@/test/server-answers'

let warn: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  vi.restoreAllMocks()
})

describe('live sessions', () => {
  it("read the server's answer whole", () => {
    const running = answers.sessionSummary({ endedAt: null, completionStatus: 'in_progress', outcome: '', safetyScore: null, verified: false })
    expect(liveSessionsSchema.parse([running])).toEqual([running])
  })

  it('leave out a session that names no learner or module: nobody could watch it', () => {
    const { userId: _u, ...anonymous } = answers.sessionSummary({ id: 'a' })
    const { moduleId: _m, ...moduleless } = answers.sessionSummary({ id: 'b' })
    expect(liveSessionsSchema.parse([anonymous, moduleless, answers.sessionSummary({ id: 'c' })]).map((s) => s.id)).toEqual(['c'])
    expect(warn).toHaveBeenCalledTimes(1)
  })

  it('are asked afresh every time (staleTime 0)', () => {
    expect(liveSessionsQueryOptions().staleTime).toBe(0)
  })
})

describe('safety alerts', () => {
  it("read the server's answer whole, and leave out an alert without a description", () => {
    expect(safetyAlertsSchema.parse([answers.safetyAlert()])).toEqual([{ ...answers.safetyAlert(), acknowledgement: null }])
    expect(safetyAlertsSchema.parse([answers.safetyAlert({ id: 8, description: null }), answers.safetyAlert()]).map((a) => a.id)).toEqual([7])
  })
})

describe("an alert's acknowledgement", () => {
  const acknowledgement = { userId: 'i1', displayName: 'Ivan Instructor', at: '2026-11-23T22:31:00Z' }

  it('is read with who and when', () => {
    expect(safetyAlertSchema.parse(answers.safetyAlert({ acknowledgement })).acknowledgement).toEqual(acknowledgement)
  })

  it('is none when the answer says null, lacks it (an older server) or sends something else', () => {
    expect(safetyAlertSchema.parse(answers.safetyAlert({ acknowledgement: null })).acknowledgement).toBeNull()
    expect(safetyAlertSchema.parse(answers.safetyAlert()).acknowledgement).toBeNull()
    expect(safetyAlertSchema.parse(answers.safetyAlert({ acknowledgement: 'yes' })).acknowledgement).toBeNull()
  })

  it("keys a list's length under the alerts, so what invalidates the alerts invalidates it", () => {
    expect(recentSafetyAlertsQueryOptions(50).queryKey.slice(0, 1)).toEqual([...realtimeKeys.safetyAlerts])
    expect(recentSafetyAlertsQueryOptions(50).staleTime).toBe(0)
  })
})
