/** Degrees one arrow-key press turns the 360° view. */
export const PANORAMA_KEY_STEP = 15
/** Degrees a Page Up/Down press turns it: a quarter turn. */
export const PANORAMA_PAGE_STEP = 90
/** Dragging across the whole viewer turns it this far. */
export const PANORAMA_DEGREES_PER_WIDTH = 120

/** Brings any angle into 0 ≤ a < 360. */
export function wrapHeading(degrees: number): number {
  return ((Math.round(degrees) % 360) + 360) % 360
}

/** The heading after a key press, or null when the key does not turn the view. */
export function headingAfterKey(heading: number, key: string): number | null {
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return wrapHeading(heading + PANORAMA_KEY_STEP)
    case 'ArrowLeft':
    case 'ArrowDown':
      return wrapHeading(heading - PANORAMA_KEY_STEP)
    case 'PageUp':
      return wrapHeading(heading + PANORAMA_PAGE_STEP)
    case 'PageDown':
      return wrapHeading(heading - PANORAMA_PAGE_STEP)
    case 'Home':
      return 0
    default:
      return null
  }
}

/** The heading after dragging dx pixels across a viewer `width` pixels wide; dragging left looks right. */
export function headingAfterDrag(heading: number, dx: number, width: number): number {
  if (width <= 0) return heading
  return wrapHeading(heading - (dx / width) * PANORAMA_DEGREES_PER_WIDTH)
}

/** The compass point nearest a heading, for screen readers. */
export function compassPoint(heading: number): string {
  const points = ['north', 'north-east', 'east', 'south-east', 'south', 'south-west', 'west', 'north-west']
  return points[Math.round(wrapHeading(heading) / 45) % 8]
}
