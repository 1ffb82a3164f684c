import { describe, expect, it } from 'vitest'
import {
  assessmentFormSchema,
  assessmentFormValues,
  buildRecommendationRequest,
  hoursPerWeek,
  initialAssessment,
  initialPreferences,
  joinList,
  preferencesFormSchema,
  preferencesFormValues,
  splitList,
} from './forms'

describe('splitList', () => {
  it.each([
    ['', []],
    ['wiring', ['wiring']],
    ['wiring, conduit bending', ['wiring', 'conduit bending']],
    ['  wiring  ,conduit ,  ', ['wiring', 'conduit']],
    [',,a,, ,b,', ['a', 'b']],
    ['   ', []],
  ])('splits %j', (input, want) => {
    expect(splitList(input)).toEqual(want)
  })

  it('round-trips through joinList', () => {
    expect(splitList(joinList(['a', 'b c']))).toEqual(['a', 'b c'])
  })
})

describe('hoursPerWeek', () => {
  it.each([
    [15, 0],
    [30, 1],
    [45, 2],
    [60, 3],
    [75, 3],
    [90, 4],
    [105, 5],
    [120, 6],
  ])('%i-minute sessions give %i hours', (minutes, hours) => {
    expect(hoursPerWeek(minutes)).toBe(hours)
  })
})

describe('buildRecommendationRequest', () => {
  it('defaults to electrical with the initial values', () => {
    expect(buildRecommendationRequest(initialPreferences, null)).toEqual({
      tradeCategory: 'electrical',
      currentSkillLevel: 'beginner',
      timeConstraints: { hoursPerWeek: 1, preferredSessionLength: 30 },
      focusAreas: [],
    })
  })

  it('uses the assessed trade, the session duration and the focus areas', () => {
    const req = buildRecommendationRequest(
      { ...initialPreferences, sessionDuration: 90, focusAreas: ['safety', 'wiring'] },
      { ...initialAssessment, tradeCategory: 'hvac', overallScore: 50 },
    )
    expect(req).toEqual({
      tradeCategory: 'hvac',
      currentSkillLevel: 'beginner',
      timeConstraints: { hoursPerWeek: 4, preferredSessionLength: 90 },
      focusAreas: ['safety', 'wiring'],
    })
  })
})

describe('form schemas', () => {
  it('give back what the forms started with', () => {
    const prefs = { ...initialPreferences, focusAreas: ['safety', 'wiring'] }
    const { availableTimeSlots: _slots, ...shownPrefs } = prefs
    expect(preferencesFormSchema.parse(preferencesFormValues(prefs))).toEqual(shownPrefs)
    const assessment = { ...initialAssessment, strengths: ['hand tools'] }
    const { skillAreas: _areas, currentLevels: _levels, ...shownAssessment } = assessment
    expect(assessmentFormSchema.parse(assessmentFormValues(assessment))).toEqual(shownAssessment)
  })

  it('count characters, not UTF-16 units, as the server does', () => {
    const values = { ...preferencesFormValues(initialPreferences), focusAreas: '🔧'.repeat(100), learningGoals: '🔧'.repeat(2000) }
    expect(preferencesFormSchema.safeParse(values).success).toBe(true)
    const over = preferencesFormSchema.safeParse({ ...values, focusAreas: '🔧'.repeat(101), learningGoals: '🔧'.repeat(2001) })
    expect(over.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['focusAreas', 'Each item in focus areas must be at most 100 characters.'],
      ['learningGoals', 'Learning goals must be at most 2000 characters.'],
    ])
  })
})
