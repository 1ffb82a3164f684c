import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { voiceModulesSchema, voiceRunSchema, voiceRunsSchema } from '@/api/voice'
import * as answers from '@/test/server-answers'

let warn: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  vi.restoreAllMocks()
})

describe('voice modules', () => {
  it("read the server's answer whole", () => {
    expect(voiceModulesSchema.parse([answers.voiceModule()])).toEqual([answers.voiceModule()])
  })

  it('leave out a module that cannot be trained by voice, and keep the others', () => {
    const list = [answers.voiceModule({ id: 'silent', voiceCommands: [] }), answers.voiceModule({ id: 'stepless', totalSteps: 0 }), answers.voiceModule()]
    expect(voiceModulesSchema.parse(list).map((m) => m.id)).toEqual([answers.voiceModule().id])
    expect(warn).toHaveBeenCalledWith('GET /api/voice-modules: left out 2 items that could not be read')
  })
})

describe('voice runs', () => {
  const run = {
    id: 'r1',
    moduleId: 'electrical-lockout-tagout',
    moduleName: 'Lockout/Tagout',
    startedAt: '2026-03-01T09:00:00Z',
    endedAt: '2026-03-01T09:05:00Z',
    totalSteps: 8,
    stepsWalked: 8,
    completed: true,
    emergencyStops: 1,
    score: 100,
    passed: true,
    createdAt: '2026-03-01T09:05:00Z',
  }
  it("read the server's answer whole, newest first as sent", () => {
    expect(voiceRunsSchema.parse({ runs: [run, { ...run, id: 'r0' }] })).toEqual([run, { ...run, id: 'r0' }])
  })
  it('leave out a run without an id, and read missing figures as 0', () => {
    const { stepsWalked: _s, ...noSteps } = run
    expect(voiceRunsSchema.parse({ runs: [{ ...run, id: undefined }, noSteps] })).toEqual([{ ...run, stepsWalked: 0 }])
    expect(warn).toHaveBeenCalledWith('GET /api/voice-training/runs: left out 1 item that could not be read')
  })
  it('read a missing list as no runs', () => {
    expect(voiceRunsSchema.parse({ runs: null })).toEqual([])
    expect(voiceRunSchema.parse(run)).toEqual(run)
  })
})
