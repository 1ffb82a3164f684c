/** How long a scroll waits for its target to appear. */
export const WAIT_MS = 10_000
/** How long after reaching its target a scroll follows the target's moves. */
export const SETTLE_MS = 2000

/**
 * Scrolls to the element with this id. The target may belong to a page that
 * is still rendering (lazy chunks, sections rendered in a transition), so it
 * waits on animation frames for up to `WAIT_MS`. Content above the target
 * may still load after the scroll and move it (images, lazy sections): for
 * `SETTLE_MS` the scroll follows the target. Either stops as soon as the
 * person scrolls, taps or types: the page is theirs again.
 */
export function scrollToId(id: string): void {
  const started = performance.now()
  let stopped = false
  const inputs = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const
  const stop = () => {
    stopped = true
    for (const type of inputs) window.removeEventListener(type, stop, true)
  }
  for (const type of inputs) window.addEventListener(type, stop, { capture: true, passive: true })

  let element: HTMLElement | null = null
  let place = 0 // the target's place in the document, which scrolling does not change
  let until = 0
  const placeOf = (e: HTMLElement) => e.getBoundingClientRect().top + window.scrollY
  const frame = () => {
    if (stopped) return
    const now = performance.now()
    if (!element) {
      element = document.getElementById(id)
      if (element) {
        const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches
        element.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' })
        place = placeOf(element)
        until = now + SETTLE_MS
      } else if (now - started > WAIT_MS) {
        return stop()
      }
    } else if (!element.isConnected || now > until) {
      return stop()
    } else if (Math.abs(placeOf(element) - place) > 1) {
      place = placeOf(element)
      element.scrollIntoView({ behavior: 'auto', block: 'start' })
    }
    requestAnimationFrame(frame)
  }
  frame()
}
