import { afterEach, describe, expect, it, vi } from 'vitest'
import { fetchXrSessions } from '@/lib/queries/xr-sessions'

function answer(body: unknown) {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })))
}

afterEach(() => {
  vi.unstubAllGlobals()
})

const summary = { moduleId: 'm1', moduleTitle: 'LOTO', sessionType: 'desktop', startedAt: '2026-03-01T10:00:00Z', duration: 600, completionStatus: 'completed', safetyScore: 100 }

describe('fetchXrSessions', () => {
  it("reads the summary's outcome, and a pass the server could not verify as no pass", async () => {
    answer([
      { ...summary, outcome: 'passed', verified: true, verificationIssues: [] },
      { ...summary, outcome: 'passed', verified: false, verificationIssues: ['Steps were recorded faster than the scene allows.'] },
      { ...summary, outcome: 'failed', verified: false, verificationIssues: ['…'] },
    ])
    expect((await fetchXrSessions('u1')).map((s) => s.outcome)).toEqual(['passed', 'unverified', 'failed'])
  })

  it("reads a full record's interactionData outcome, and records without a verified flag as before", async () => {
    answer([{ ...summary, interactionData: { completionStatus: 'passed' } }])
    expect((await fetchXrSessions('u1'))[0].outcome).toBe('passed')
  })
})
