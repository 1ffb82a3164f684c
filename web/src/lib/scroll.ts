/**
 * Scrolls to the element with this id. The target may belong to a page that
 * is still loading (lazy chunks), so it retries on animation frames for up
 * to `timeoutMs` before giving up.
 */
export function scrollToId(id: string, timeoutMs = 3000): void {
  const started = performance.now()
  const attempt = () => {
    const element = document.getElementById(id)
    if (element) {
      const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches
      element.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' })
      return
    }
    if (performance.now() - started < timeoutMs) requestAnimationFrame(attempt)
  }
  attempt()
}
