import { describe, expect, it } from 'vitest'
import { clampStep, defaultProfile, motorAssistanceOptions, profileFormSchema, sessionLengths, stepFields, stepTitles, toggleOption, WIZARD_STEPS } from './wizard'

describe('wizard', () => {
  it('has seven steps and the seed 001 defaults', () => {
    expect(WIZARD_STEPS).toBe(7)
    expect(stepTitles).toHaveLength(7)
    expect(defaultProfile).toMatchObject({
      xrComfortLevel: 5,
      safetyEmphasis: 8,
      motionSensitivity: 'medium',
      difficultyProgression: 'moderate',
      feedbackFrequency: 'moderate',
      fontSize: 'medium',
      uiComplexity: 'standard',
      colorScheme: 'default',
      experienceLevel: 'beginner',
      learningStyle: 'mixed',
      primaryTrade: '',
    })
    expect(sessionLengths.map((s) => s.label)).toEqual(['15 minutes', '30 minutes', '45 minutes', '60+ minutes'])
  })

  it('keeps the step within 1..7', () => {
    expect([clampStep(0), clampStep(1), clampStep(7), clampStep(8)]).toEqual([1, 1, 7, 7])
  })

  it('toggles options in the offered order without duplicates', () => {
    let list: string[] = []
    list = toggleOption(list, 'extended-timeouts', true, motorAssistanceOptions)
    list = toggleOption(list, 'simplified-controls', true, motorAssistanceOptions)
    list = toggleOption(list, 'simplified-controls', true, motorAssistanceOptions)
    expect(list).toEqual(['simplified-controls', 'extended-timeouts'])
    expect(toggleOption(list, 'simplified-controls', false, motorAssistanceOptions)).toEqual(['extended-timeouts'])
  })

  it('checks every field of the profile on exactly one step', () => {
    expect(stepFields).toHaveLength(WIZARD_STEPS)
    expect(stepFields.flat().sort()).toEqual(Object.keys(defaultProfile).sort())
  })

  it('accepts the defaults and no primary trade, but not a choice it does not offer', () => {
    expect(profileFormSchema.parse(defaultProfile)).toEqual(defaultProfile)
    const result = profileFormSchema.safeParse({ ...defaultProfile, primaryTrade: 'roofing', preferredSessionLength: 90 })
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['primaryTrade', 'Choose your primary trade.'],
      ['preferredSessionLength', 'Choose a session length.'],
    ])
  })
})
