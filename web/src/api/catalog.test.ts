import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import {
  catalogKeys,
  sceneSchema,
  trainingModulesQueryOptions,
  trainingModulesSchema,
  tradesQueryOptions,
  tradesSchema,
  xrContentQueryOptions,
  xrContentSchema,
} from '@/api/catalog'
import { fakeApi } from '@/test/fake-api'
import * as answers from '@/test/server-answers'

let warn: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('trades', () => {
  it("reads the server's answer whole", () => {
    expect(tradesSchema.parse(answers.trades())).toEqual(answers.trades())
  })

  it('leaves out a trade without a name and keeps the others', () => {
    const [electrical, plumbing] = answers.trades()
    const { name: _name, ...nameless } = plumbing
    expect(tradesSchema.parse([nameless, electrical]).map((t) => t.id)).toEqual(['electrical'])
    expect(warn).toHaveBeenCalledWith('GET /api/trade-categories: left out 1 item that could not be read')
  })

  it('reads a trade without a description or certifications with empty ones', () => {
    expect(tradesSchema.parse([{ id: 'hvac', name: 'HVAC', certifications: ['EPA 608', 7] }])).toEqual([
      { id: 'hvac', name: 'HVAC', description: '', certifications: ['EPA 608'] },
    ])
  })
})

describe('training modules', () => {
  it("reads the server's answer whole, in catalog order", () => {
    expect(trainingModulesSchema.parse(answers.modules())).toEqual(answers.modules())
  })

  it('leaves out a broken module and keeps the others', () => {
    const list = answers.modules()
    const broken = [{ ...list[0], id: 42 }, list[1], 'not a module', { ...list[2], title: null }, list[3]]
    expect(trainingModulesSchema.parse(broken).map((m) => m.id)).toEqual([list[1].id, list[3].id])
    expect(warn).toHaveBeenCalledWith('GET /api/training-modules: left out 3 items that could not be read')
  })

  it('reads a module missing its lists and figures with empty ones', () => {
    const [m] = trainingModulesSchema.parse([{ id: 'm', title: 'M' }])
    expect(m).toEqual({
      id: 'm',
      tradeId: '',
      title: 'M',
      description: '',
      difficulty: '',
      estimatedDuration: 0,
      learningObjectives: [],
      safetyPoints: [],
      prerequisites: [],
      categories: [],
    })
  })

  it('reads null as no modules and fails on an answer that is no list', () => {
    expect(trainingModulesSchema.parse(null)).toEqual([])
    expect(() => trainingModulesSchema.parse({ modules: [] })).toThrow()
  })
})

describe('XR content and scenes', () => {
  it("reads the server's answer whole", () => {
    expect(xrContentSchema.parse(answers.xrContent())).toEqual(answers.xrContent())
    expect(sceneSchema.parse(answers.scene())).toEqual(answers.scene())
  })

  it('refuses a scene with a step it cannot run: the launcher says the module has no scene', () => {
    const scene = answers.scene()
    expect(() => sceneSchema.parse({ ...scene, steps: [{ ...scene.steps[0], action: 'dance' }] })).toThrow()
  })
})

describe('catalog queries', () => {
  it('keep one key per answer and fetch each path with credentials', async () => {
    const fetchMock = fakeApi({
      'GET /api/trade-categories': { body: answers.trades() },
      'GET /api/training-modules': { body: answers.modules() },
      'GET /api/training-modules/electrical-lockout-tagout/xr-content': { body: answers.xrContent() },
    })
    const client = new QueryClient()
    await client.fetchQuery(tradesQueryOptions())
    await client.fetchQuery(trainingModulesQueryOptions())
    await client.fetchQuery(xrContentQueryOptions('electrical-lockout-tagout'))
    expect(fetchMock.mock.calls.map(([url, init]) => [url, init])).toEqual([
      ['/api/trade-categories', { credentials: 'include' }],
      ['/api/training-modules', { credentials: 'include' }],
      ['/api/training-modules/electrical-lockout-tagout/xr-content', { credentials: 'include' }],
    ])
    const keys = client
      .getQueryCache()
      .getAll()
      .map((q) => q.queryKey)
    expect(keys).toEqual([catalogKeys.trades, catalogKeys.modules, catalogKeys.xrContent('electrical-lockout-tagout')])
    // The cache holds the whole parsed answer, whatever a page selects from it.
    expect(client.getQueryData(catalogKeys.modules)).toEqual(answers.modules())
  })

  it('fetch no XR content while no module is chosen', () => {
    expect(xrContentQueryOptions('').enabled).toBe(false)
  })
})
