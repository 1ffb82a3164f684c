// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SETTLE_MS, WAIT_MS, scrollToId } from './scroll'

// jsdom has no layout: the target's document position is set by hand, as
// content loading above it would move it.
let top = 500
let target: HTMLElement
let scrolls: ScrollIntoViewOptions[]

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'performance'] })
  top = 500
  scrolls = []
  target = document.createElement('section')
  target.id = 'target'
  target.getBoundingClientRect = () => ({ top, left: 0, right: 0, bottom: 0, width: 0, height: 0, x: 0, y: top, toJSON: () => ({}) })
  target.scrollIntoView = (options?: boolean | ScrollIntoViewOptions) => {
    scrolls.push(options as ScrollIntoViewOptions)
  }
  document.body.append(target)
})

afterEach(() => {
  target.remove()
  vi.useRealTimers()
})

describe('scrollToId', () => {
  it('scrolls once to a target that stays put', () => {
    scrollToId('target')
    vi.advanceTimersByTime(SETTLE_MS + 100)
    expect(scrolls).toHaveLength(1)
  })

  it('follows the target when content above it moves it, then lets go', () => {
    scrollToId('target')
    vi.advanceTimersByTime(100)
    top = 300 // a section above collapsed
    vi.advanceTimersByTime(100)
    expect(scrolls).toHaveLength(2)
    expect(scrolls[1]).toEqual({ behavior: 'auto', block: 'start' })
    vi.advanceTimersByTime(SETTLE_MS)
    top = 900
    vi.advanceTimersByTime(100)
    expect(scrolls).toHaveLength(2)
  })

  it('stops following once the person scrolls', () => {
    scrollToId('target')
    window.dispatchEvent(new Event('wheel'))
    top = 300
    vi.advanceTimersByTime(200)
    expect(scrolls).toHaveLength(1)
  })

  it('waits for a target that is not there yet', () => {
    target.remove()
    scrollToId('target')
    vi.advanceTimersByTime(100)
    expect(scrolls).toHaveLength(0)
    document.body.append(target)
    vi.advanceTimersByTime(100)
    expect(scrolls).toHaveLength(1)
  })

  it('gives up on a target that never comes', () => {
    target.remove()
    scrollToId('target')
    vi.advanceTimersByTime(WAIT_MS + 100)
    document.body.append(target)
    vi.advanceTimersByTime(100)
    expect(scrolls).toHaveLength(0)
  })

  it('does not scroll to a late target once the person has scrolled', () => {
    target.remove()
    scrollToId('target')
    window.dispatchEvent(new Event('touchstart'))
    document.body.append(target)
    vi.advanceTimersByTime(100)
    expect(scrolls).toHaveLength(0)
  })
})
