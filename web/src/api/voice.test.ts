import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { voiceModulesSchema } from '@/api/voice'
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
