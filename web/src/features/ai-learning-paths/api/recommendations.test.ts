import { describe, expect, it } from 'vitest'
import { parseRecommendations } from './recommendations'

const set = {
  id: 3,
  createdAt: '2026-11-23T04:00:00Z',
  request: {},
  recommendations: {
    reasoningExplanation: 'Because.',
    recommendedPaths: [{ id: 'p', name: 'Path', difficulty: 'beginner', description: 'd', estimatedDuration: 1.5, moduleSequence: ['a', 'b'] }],
    personalizedModifications: ['m'],
    estimatedOutcomes: ['o'],
  },
}

describe('parseRecommendations', () => {
  it('reads the empty list GET answers before the first Generate as none', () => {
    expect(parseRecommendations([])).toBeNull()
    expect(parseRecommendations(null)).toBeNull()
  })
  it('reads the newest set of the list, the 201 set and a bare set alike', () => {
    for (const body of [[set], set, set.recommendations]) {
      expect(parseRecommendations(body)).toEqual(set.recommendations)
    }
  })
  it('keeps a set whose paths are all done', () => {
    expect(parseRecommendations({ recommendations: { ...set.recommendations, recommendedPaths: [] } })?.recommendedPaths).toEqual([])
  })
})
