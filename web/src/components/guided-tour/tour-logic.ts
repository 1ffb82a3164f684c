import { TOUR_GUIDE_OFFSET_PX, TOUR_STORAGE_KEY, type TourPosition } from '@/content/tour'

/** A box in viewport coordinates, like a DOMRect. */
export interface Box {
  top: number
  left: number
  width: number
  height: number
}

/** Where the guide goes and on which side of its target it ended up. */
export interface GuidePlacement {
  top: number
  left: number
  placement: TourPosition
}

/** The guide keeps at least this far from the viewport's edges. */
export const VIEWPORT_MARGIN_PX = 16

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(value, Math.max(min, max)))
}

/**
 * Places the guide TOUR_GUIDE_OFFSET_PX (20 px) above or below its target,
 * horizontally centred on it and kept inside the viewport. A guide that
 * would leave the viewport on the asked side goes to the other side when
 * that side has room. Without a target (or for 'center') it is centred.
 */
export function placeGuide(
  target: Box | null,
  guide: { width: number; height: number },
  viewport: { width: number; height: number },
  position: TourPosition,
  offset: number = TOUR_GUIDE_OFFSET_PX,
): GuidePlacement {
  const centred: GuidePlacement = {
    top: Math.max(VIEWPORT_MARGIN_PX, (viewport.height - guide.height) / 2),
    left: Math.max(VIEWPORT_MARGIN_PX, (viewport.width - guide.width) / 2),
    placement: 'center',
  }
  if (!target || position === 'center') return centred

  const below = target.top + target.height + offset
  const above = target.top - offset - guide.height
  const fitsBelow = below + guide.height <= viewport.height - VIEWPORT_MARGIN_PX
  const fitsAbove = above >= VIEWPORT_MARGIN_PX
  let placement: TourPosition = position
  if (position === 'bottom' && !fitsBelow && fitsAbove) placement = 'top'
  if (position === 'top' && !fitsAbove && fitsBelow) placement = 'bottom'

  const left = clamp(
    target.left + target.width / 2 - guide.width / 2,
    VIEWPORT_MARGIN_PX,
    viewport.width - VIEWPORT_MARGIN_PX - guide.width,
  )
  return { top: placement === 'bottom' ? below : above, left, placement }
}

/** True when a box has size, i.e. its element is displayed. */
export function isDisplayed(box: Box | null): box is Box {
  return !!box && box.width > 0 && box.height > 0
}

/** Storage the tour reads; window.localStorage in the app. */
export type TourStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

function browserStorage(): TourStorage | null {
  try {
    return window.localStorage
  } catch {
    // Storage can be disabled (privacy settings); the tour then behaves as on a first visit.
    return null
  }
}

/** True once the tour was completed or skipped (the flag holds 'true'). */
export function isTourCompleted(storage: TourStorage | null = browserStorage()): boolean {
  try {
    return storage?.getItem(TOUR_STORAGE_KEY) === 'true'
  } catch {
    return false
  }
}

/** Records that the tour was completed or skipped. */
export function markTourCompleted(storage: TourStorage | null = browserStorage()): void {
  try {
    storage?.setItem(TOUR_STORAGE_KEY, 'true')
  } catch {
    // A full or blocked storage only means the tour opens again next visit.
  }
}

/** Forgets the flag, so the next visit is a first visit again. */
export function clearTourCompleted(storage: TourStorage | null = browserStorage()): void {
  try {
    storage?.removeItem(TOUR_STORAGE_KEY)
  } catch {
    // Nothing stored, nothing to clear.
  }
}

/** The tour's state: closed, or open on a step. */
export interface TourState {
  open: boolean
  step: number
}

/** What the visitor or a timer does to the tour. */
export type TourAction =
  | { type: 'open' }
  | { type: 'next' }
  | { type: 'previous' }
  | { type: 'close' }

/**
 * The tour's transitions (spec 000 §4): the step runs 0..count-1; Previous
 * stops at the first step; Next past the last step closes the tour (the
 * caller treats that as completion); opening always starts at the first step.
 */
export function tourReducer(count: number) {
  return (state: TourState, action: TourAction): TourState => {
    switch (action.type) {
      case 'open':
        return { open: true, step: 0 }
      case 'next':
        return state.step >= count - 1 ? { open: false, step: 0 } : { ...state, step: state.step + 1 }
      case 'previous':
        return { ...state, step: Math.max(0, state.step - 1) }
      case 'close':
        return { open: false, step: 0 }
    }
  }
}
