import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ReactNode } from 'react'
import { renderHook } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import {
  dueRefreshers,
  initialAssessment,
  initialPreferences,
  latestRecommendations,
  learningKeys,
  learningPreferencesSchema,
  preferencesOf,
  recommendationSetsSchema,
  recommendationSetSchema,
  refreshersSchema,
  skillAssessmentsSchema,
  storedAssessmentSchema,
  useGenerateRecommendations,
  useSaveLearningPreferences,
} from '@/api/learning'
import { createQueryClient } from '@/lib/api'
import { fakeApi } from '@/test/fake-api'
import * as answers from '@/test/server-answers'

let warn: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('learning preferences', () => {
  it("read the server's answer whole; the form edits all but saved and updatedAt", () => {
    const parsed = learningPreferencesSchema.parse(answers.learningPreferences())
    expect(parsed).toEqual(answers.learningPreferences())
    const { saved: _s, updatedAt: _u, ...prefs } = answers.learningPreferences()
    expect(preferencesOf(parsed)).toEqual(prefs)
  })

  it('read a field the server leaves out as its initial value (spec 000 §9)', () => {
    expect(preferencesOf(learningPreferencesSchema.parse({ sessionDuration: 60, focusAreas: ['safety', 3] }))).toEqual({
      ...initialPreferences,
      sessionDuration: 60,
      focusAreas: ['safety'],
    })
  })
})

describe('skill assessments', () => {
  it("read the server's answer whole", () => {
    expect(skillAssessmentsSchema.parse(answers.skillAssessments())).toEqual(answers.skillAssessments())
    expect(storedAssessmentSchema.parse(answers.storedAssessment())).toEqual(answers.storedAssessment())
  })

  it('leave out a broken assessment and keep the others', () => {
    const good = answers.storedAssessment()
    const parsed = skillAssessmentsSchema.parse({ ...answers.skillAssessments(), assessments: [{ ...good, id: 'x' }, good] })
    expect(parsed.assessments).toEqual([good])
    expect(warn).toHaveBeenCalledTimes(1)
  })

  it('start the form from the latest assessment without "initial", and from the initial values before any', () => {
    const { initial: _i, ...noInitial } = answers.skillAssessments()
    const { id: _id, level: _l, createdAt: _c, ...latest } = answers.storedAssessment()
    expect(skillAssessmentsSchema.parse(noInitial).initial).toEqual(latest)
    expect(skillAssessmentsSchema.parse({ assessments: [] })).toEqual({ assessments: [], initial: initialAssessment })
  })
})

describe('recommendations', () => {
  it("read the server's answers whole: the list and a generated set", () => {
    expect(recommendationSetsSchema.parse([answers.recommendationSet()])).toEqual([answers.recommendationSet()])
    expect(recommendationSetSchema.parse(answers.recommendationSet())).toEqual(answers.recommendationSet())
  })

  it('read [] before the first Generate as none', () => {
    expect(latestRecommendations(recommendationSetsSchema.parse([]))).toBeNull()
  })

  it('keep a set whose paths are all done, and leave out a broken path', () => {
    const set = answers.recommendationSet()
    const done = recommendationSetSchema.parse({ ...set, recommendations: { ...set.recommendations, recommendedPaths: [] } })
    expect(done.recommendations.recommendedPaths).toEqual([])
    const broken = recommendationSetSchema.parse({ ...set, recommendations: { ...set.recommendations, recommendedPaths: [{ id: 'p' }, ...set.recommendations.recommendedPaths] } })
    expect(broken.recommendations.recommendedPaths).toEqual(set.recommendations.recommendedPaths)
  })
})

describe('refreshers', () => {
  it("read the server's answer whole", () => {
    expect(refreshersSchema.parse(answers.refreshers())).toEqual(answers.refreshers())
    expect(dueRefreshers(refreshersSchema.parse(answers.refreshers()))).toEqual(answers.refreshers().due)
  })

  it('leave out a refresher without a due time and keep the others; a missing list reads as none', () => {
    const { due: _d, ...undated } = answers.refresher({ moduleId: 'x' })
    const parsed = refreshersSchema.parse({ now: 'now', due: [undated, answers.refresher()] })
    expect(parsed.due).toEqual([answers.refresher()])
    expect(parsed.upcoming).toEqual([])
  })
})

describe('learning mutations', () => {
  function setup() {
    const fetchMock = fakeApi({
      'POST /api/ai-learning/learning-preferences': { body: answers.learningPreferences() },
      'POST /api/ai-learning/generate-recommendations': { status: 201, body: answers.recommendationSet() },
    })
    const client = createQueryClient()
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>
    return { fetchMock, client, wrapper }
  }

  it('saving preferences puts the stored preferences, in the GET shape, under the GET key', async () => {
    const { client, wrapper } = setup()
    const { result } = renderHook(() => useSaveLearningPreferences(), { wrapper })
    await result.current.mutateAsync(preferencesOf(learningPreferencesSchema.parse(answers.learningPreferences())))
    expect(client.getQueryData(learningKeys.preferences)).toEqual(answers.learningPreferences())
  })

  it('generating puts the new set where the GET list has it', async () => {
    const { client, wrapper } = setup()
    const { result } = renderHook(() => useGenerateRecommendations(), { wrapper })
    await result.current.mutateAsync(answers.recommendationSet().request)
    expect(client.getQueryData(learningKeys.recommendations)).toEqual([answers.recommendationSet()])
  })
})
