/** How long after reaching its target a scroll follows the target's moves. */
export const SETTLE_MS = 2000

/**
 * Scrolls to the element with this id. The target may belong to a page that
 * is still loading (lazy chunks), so it retries on animation frames for up
 * to `timeoutMs` before giving up. Content above the target may still load
 * after the scroll and move it (images, lazy sections): for `SETTLE_MS` the
 * scroll follows the target, until the person scrolls or types themselves.
 */
export function scrollToId(id: string, timeoutMs = 3000): void {
  const started = performance.now()
  const attempt = () => {
    const element = document.getElementById(id)
    if (element) {
      follow(element)
      return
    }
    if (performance.now() - started < timeoutMs) requestAnimationFrame(attempt)
  }
  attempt()
}

function follow(element: HTMLElement): void {
  const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches
  element.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' })
  // The target's place in the document, which scrolling does not change.
  const place = () => element.getBoundingClientRect().top + window.scrollY
  let last = place()
  let stopped = false
  const inputs = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const
  const stop = () => {
    stopped = true
    for (const type of inputs) window.removeEventListener(type, stop, true)
  }
  for (const type of inputs) window.addEventListener(type, stop, { capture: true, passive: true })
  const until = performance.now() + SETTLE_MS
  const check = () => {
    if (stopped) return
    if (!element.isConnected || performance.now() > until) {
      stop()
      return
    }
    const now = place()
    if (Math.abs(now - last) > 1) {
      last = now
      element.scrollIntoView({ behavior: 'auto', block: 'start' })
    }
    requestAnimationFrame(check)
  }
  requestAnimationFrame(check)
}
