import { describe, expect, it } from 'vitest'
import { unityModules, unrealProjects } from '@/content/unity-unreal'
import { canLaunch, canStream, countByStatus } from './catalog'

describe('canLaunch', () => {
  it.each([
    ['available', 'electrical-lockout-tagout', true],
    ['available', undefined, false],
    ['in-development', 'x', false],
    ['coming-soon', 'x', false],
  ] as const)('%s with module %s → %s', (status, moduleId, want) => {
    expect(canLaunch({ status, moduleId })).toBe(want)
  })
})

describe('canStream', () => {
  it.each([
    ['live', 'lineworker-temporary-grounds', true],
    ['live', undefined, false],
    ['beta', 'x', false],
    ['development', 'x', false],
  ] as const)('%s with module %s → %s', (status, moduleId, want) => {
    expect(canStream({ status, moduleId })).toBe(want)
  })
})

describe('the page catalog', () => {
  it('has every Unity status, and every available module names a catalog module', () => {
    expect(new Set(unityModules.map((m) => m.status))).toEqual(new Set(['available', 'in-development', 'coming-soon']))
    for (const m of unityModules.filter((m) => m.status === 'available')) expect(canLaunch(m)).toBe(true)
  })

  it('has every Unreal status, and every live project names a catalog module', () => {
    expect(new Set(unrealProjects.map((p) => p.status))).toEqual(new Set(['live', 'beta', 'development']))
    for (const p of unrealProjects.filter((p) => p.status === 'live')) expect(canStream(p)).toBe(true)
  })

  it('uses unique ids', () => {
    const ids = [...unityModules, ...unrealProjects].map((e) => e.id)
    expect(new Set(ids).size).toBe(ids.length)
  })
})

describe('countByStatus', () => {
  it('counts in the given order, zeros included', () => {
    expect(countByStatus([{ status: 'a' }, { status: 'b' }, { status: 'a' }], ['b', 'a', 'c'])).toEqual([
      { status: 'b', count: 1 },
      { status: 'a', count: 2 },
      { status: 'c', count: 0 },
    ])
  })
})
