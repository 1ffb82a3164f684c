import { describe, expect, it } from 'vitest'
import { MESSAGES, applyCommand, matchCommand, normalize, progressPercent, respond, type ModuleProgress } from '@/features/voice-xr/lib/commands'
import { ladder } from '@/features/voice-xr/lib/test-modules'

const at = (currentStep: number, isActive = true): ModuleProgress => ({ moduleId: ladder.id, currentStep, isActive })
const cmd = (action: string) => ladder.voiceCommands.find((c) => c.action === action)!

describe('normalize', () => {
  it.each([
    ['Next step.', 'next step'],
    ['  EMERGENCY   stop! ', 'emergency stop'],
    ['', ''],
  ])('%j → %j', (input, want) => expect(normalize(input)).toBe(want))
})

describe('matchCommand (spec 001 §5)', () => {
  it.each([
    ['next step', 'exact', 'next step'],
    ['Next step.', 'exact', 'next step'],
    ['next', 'exact', 'next step'], // a substring of the phrase
    ['emergency', 'exact', 'emergency stop'],
    ['step', 'exact', 'next step'], // the first command in module order wins
    ['secured', 'exact', 'ladder secured'],
    ['go to the next one', 'fuzzy', 'next step'], // not a substring; holds the word "next"
    ['please stop now', 'fuzzy', 'emergency stop'],
    ['the ladder is wobbling', 'fuzzy', 'ladder complete'],
    ['hello there', 'none', undefined],
    ['', 'none', undefined],
  ])('%j → %s %s', (said, kind, phrase) => {
    const m = matchCommand(said, ladder.voiceCommands)
    expect(m.kind).toBe(kind)
    expect(m.kind === 'none' ? undefined : m.command.command).toBe(phrase)
  })
})

describe('applyCommand (spec 001 §4)', () => {
  it('start sets step 1 and reads it', () => {
    const o = applyCommand(ladder, at(0), cmd('start'))
    expect(o.progress).toEqual(at(1))
    expect(o.speech).toBe('Starting Portable Ladder Setup and Climbing. Step 1 of 3: Inspect the rails and rungs.')
  })
  it('start restarts a paused module', () => {
    expect(applyCommand(ladder, at(2, false), cmd('start')).progress).toEqual(at(1))
  })
  it('next advances and reads the new step', () => {
    const o = applyCommand(ladder, at(1), cmd('next'))
    expect(o.progress.currentStep).toBe(2)
    expect(o.speech).toBe('Step 2 of 3: Set the feet one foot out for every four feet of height.')
  })
  it('next stops at totalSteps', () => {
    const o = applyCommand(ladder, at(3), cmd('next'))
    expect(o.progress.currentStep).toBe(3)
    expect(o.speech).toBe('That was the last step. Say "ladder complete" when you are done.')
  })
  it('next before start says how to begin', () => {
    const o = applyCommand(ladder, at(0), cmd('next'))
    expect(o.progress.currentStep).toBe(0)
    expect(o.speech).toBe('Portable Ladder Setup and Climbing has not started. Say "start inspection" to begin.')
  })
  it('next on a paused module does not move', () => {
    const o = applyCommand(ladder, at(1, false), cmd('next'))
    expect(o.progress).toEqual(at(1, false))
    expect(o.speech).toContain('is paused for safety')
  })
  it('repeat re-reads the current instructions', () => {
    const o = applyCommand(ladder, at(2), cmd('repeat'))
    expect(o.progress).toEqual(at(2))
    expect(o.speech).toBe('Step 2 of 3: Set the feet one foot out for every four feet of height.')
  })
  it('emergency sets the module inactive with the exact message', () => {
    const o = applyCommand(ladder, at(2), cmd('emergency'))
    expect(o.progress).toEqual(at(2, false))
    expect(o.speech).toBe('Emergency stop activated. Training module paused for safety.')
    expect(o.speech).toBe(MESSAGES.emergency)
  })
  it('complete sets step to total', () => {
    const o = applyCommand(ladder, at(1), cmd('complete'))
    expect(o.progress).toEqual(at(3))
    expect(o.speech).toBe('Portable Ladder Setup and Climbing complete. All 3 steps done.')
  })
  it.each([
    ['help', 'You can say: start inspection, next step, repeat step, emergency stop, ladder complete, help, ladder secured, status report.'],
    ['confirm', 'Confirmed: Confirm the top of the ladder is tied off.'],
    ['status', 'You are on step 2 of 3.'],
  ])('%s only speaks a confirmation', (action, speech) => {
    const o = applyCommand(ladder, at(2), cmd(action))
    expect(o.progress).toEqual(at(2))
    expect(o.speech).toBe(speech)
  })
})

describe('respond (spec 001 §8 messages)', () => {
  it('a fuzzy guess speaks "I think you meant: " and the description, and changes nothing', () => {
    const r = respond(ladder, at(1), 'go to the next one')
    expect(r.speech).toBe('I think you meant: Move on to the next step')
    expect(r.progress).toEqual(at(1))
  })
  it('an unrecognised command names the first command', () => {
    const r = respond(ladder, at(1), 'hello there')
    expect(r.speech).toBe('Command not recognized. Try saying: start inspection')
    expect(r.progress).toEqual(at(1))
  })
  it('an exact match applies the rule', () => {
    expect(respond(ladder, at(1), 'Next step.').progress.currentStep).toBe(2)
  })
})

it('progress is step ÷ total steps', () => {
  expect(progressPercent(ladder, at(0))).toBe(0)
  expect(progressPercent(ladder, at(1))).toBe(33)
  expect(progressPercent(ladder, at(3))).toBe(100)
})
