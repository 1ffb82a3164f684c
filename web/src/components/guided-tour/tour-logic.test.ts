import { describe, expect, it } from 'vitest'
import { TOUR_STORAGE_KEY, tourSteps } from '@/content/tour'
import {
  clearTourCompleted,
  isTourCompleted,
  markTourCompleted,
  placeGuide,
  tourReducer,
  VIEWPORT_MARGIN_PX,
  type TourStorage,
} from './tour-logic'

function memoryStorage(): TourStorage & { data: Map<string, string> } {
  const data = new Map<string, string>()
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  }
}

describe('tourSteps', () => {
  it('has the eight steps in the spec’s order', () => {
    expect(tourSteps.map((s) => s.id)).toEqual([
      'welcome',
      'xr-training',
      'live-demo',
      'industries',
      'analytics',
      'learning-hub',
      'safety-first',
      'ready-to-start',
    ])
    expect(tourSteps[1].target).toBe('[data-tour="nav-training"]')
    expect(tourSteps[2].target).toBe('[data-tour="hero-live-demo"]')
  })
})

describe('placeGuide', () => {
  const viewport = { width: 1280, height: 800 }
  const guide = { width: 300, height: 200 }
  const target = { top: 100, left: 500, width: 100, height: 40 }

  it('puts the guide 20 px below a bottom-positioned target, centred on it', () => {
    expect(placeGuide(target, guide, viewport, 'bottom')).toEqual({ top: 160, left: 400, placement: 'bottom' })
  })

  it('puts the guide 20 px above a top-positioned target', () => {
    const low = { ...target, top: 500 }
    expect(placeGuide(low, guide, viewport, 'top')).toEqual({ top: 280, left: 400, placement: 'top' })
  })

  it('flips to the side with room', () => {
    const nearBottom = { ...target, top: 700 }
    expect(placeGuide(nearBottom, guide, viewport, 'bottom')).toMatchObject({ top: 480, placement: 'top' })
    expect(placeGuide(target, guide, viewport, 'top')).toMatchObject({ top: 160, placement: 'bottom' })
  })

  it('keeps the guide inside the viewport horizontally', () => {
    expect(placeGuide({ ...target, left: 0, width: 40 }, guide, viewport, 'bottom').left).toBe(VIEWPORT_MARGIN_PX)
    expect(placeGuide({ ...target, left: 1260, width: 20 }, guide, viewport, 'bottom').left).toBe(1280 - VIEWPORT_MARGIN_PX - 300)
  })

  it('centres the guide without a target or for a centre step', () => {
    const centred = { top: 300, left: 490, placement: 'center' }
    expect(placeGuide(null, guide, viewport, 'bottom')).toEqual(centred)
    expect(placeGuide(target, guide, viewport, 'center')).toEqual(centred)
  })
})

describe('tourReducer', () => {
  const reduce = tourReducer(8)
  it('opens on the first step, stops Previous there and closes after the last', () => {
    let s = reduce({ open: false, step: 5 }, { type: 'open' })
    expect(s).toEqual({ open: true, step: 0 })
    s = reduce(s, { type: 'previous' })
    expect(s.step).toBe(0)
    for (let i = 0; i < 7; i++) s = reduce(s, { type: 'next' })
    expect(s).toEqual({ open: true, step: 7 })
    s = reduce(s, { type: 'previous' })
    expect(s.step).toBe(6)
    s = reduce(reduce(s, { type: 'next' }), { type: 'next' })
    expect(s.open).toBe(false)
    expect(reduce({ open: true, step: 3 }, { type: 'close' })).toEqual({ open: false, step: 0 })
  })
})

describe('completion flag', () => {
  it('stores the string true under the product’s key and clears it', () => {
    const storage = memoryStorage()
    expect(isTourCompleted(storage)).toBe(false)
    markTourCompleted(storage)
    expect(storage.data.get(TOUR_STORAGE_KEY)).toBe('true')
    expect(TOUR_STORAGE_KEY).toBe('journeyman-tour-completed')
    expect(isTourCompleted(storage)).toBe(true)
    clearTourCompleted(storage)
    expect(isTourCompleted(storage)).toBe(false)
  })

  it('treats any other stored value, a missing or a throwing storage as a first visit', () => {
    const storage = memoryStorage()
    storage.setItem(TOUR_STORAGE_KEY, 'yes')
    expect(isTourCompleted(storage)).toBe(false)
    expect(isTourCompleted(null)).toBe(false)
    const broken: TourStorage = {
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {
        throw new Error('denied')
      },
      removeItem: () => {
        throw new Error('denied')
      },
    }
    expect(isTourCompleted(broken)).toBe(false)
    expect(() => markTourCompleted(broken)).not.toThrow()
    expect(() => clearTourCompleted(broken)).not.toThrow()
  })
})
