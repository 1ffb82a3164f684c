import { describe, expect, it } from 'vitest'
import { compassPoint, headingAfterDrag, headingAfterKey, wrapHeading } from './panorama'

describe('panorama headings', () => {
  it('wraps around the circle', () => {
    expect(wrapHeading(360)).toBe(0)
    expect(wrapHeading(-15)).toBe(345)
    expect(wrapHeading(725)).toBe(5)
  })

  it.each([
    ['ArrowRight', 0, 15],
    ['ArrowUp', 350, 5],
    ['ArrowLeft', 0, 345],
    ['ArrowDown', 30, 15],
    ['PageUp', 300, 30],
    ['PageDown', 45, 315],
    ['Home', 123, 0],
  ])('%s from %i° turns to %i°', (key, from, to) => {
    expect(headingAfterKey(from, key)).toBe(to)
  })

  it('ignores other keys', () => {
    expect(headingAfterKey(90, 'Enter')).toBeNull()
  })

  it('turns against the drag: dragging left looks right', () => {
    expect(headingAfterDrag(0, -300, 600)).toBe(60)
    expect(headingAfterDrag(0, 300, 600)).toBe(300)
    expect(headingAfterDrag(10, 5, 0)).toBe(10)
  })

  it('names the nearest compass point', () => {
    expect(compassPoint(0)).toBe('north')
    expect(compassPoint(100)).toBe('east')
    expect(compassPoint(350)).toBe('north')
    expect(compassPoint(225)).toBe('south-west')
  })
})
