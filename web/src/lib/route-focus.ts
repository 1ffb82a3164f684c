/** The id of the layout's main landmark (app/layout.tsx). */
export const MAIN_ID = 'main-content'
/** How long the new screen's heading (or anchor) is waited for: a lazy page's chunk, then its data, may take a while. */
export const HEADING_WAIT_MS = 10_000
/**
 * Marks an element focused here: while it has focus it draws no focus ring
 * (index.css), as a heading is not a control and a ring around it only
 * looks like one.
 */
export const ROUTE_FOCUS_ATTRIBUTE = 'data-route-focus'

/** Input that says the person has taken over: focus is theirs from then on. */
const inputs = ['keydown', 'pointerdown'] as const

/** Focuses an element from script, making a heading or section focusable and hiding its ring while focused. */
function focusQuietly(element: HTMLElement, main: HTMLElement): void {
  if (element !== main && !element.hasAttribute('tabindex') && element.tabIndex < 0) element.setAttribute('tabindex', '-1')
  element.setAttribute(ROUTE_FOCUS_ATTRIBUTE, '')
  element.addEventListener('blur', () => element.removeAttribute(ROUTE_FOCUS_ATTRIBUTE), { once: true })
  // The router decides where the screen scrolls (the top, or the address's anchor); focus never moves it.
  element.focus({ preventScroll: true })
}

/**
 * After a client-side route change, moves focus to the new screen, so a
 * keyboard or screen reader user lands on it and hears its name: to the first
 * h1 in the main landmark, or to the element the address's #anchor names.
 * While the screen is still loading (a lazy chunk, its data) focus waits on
 * the main landmark and moves to the heading once it renders, for up to
 * HEADING_WAIT_MS.
 *
 * Focus the new screen placed itself (an autofocus field, a result it
 * announces) stays where it is: focus moves only from <body>, from the main
 * landmark, from outside it (the navigation, the footer) or from
 * `atNavigation`, the element that had focus when the address changed (the
 * link just followed, when the screen kept it). Once the person presses a key
 * or a pointer, focus is theirs and the wait ends.
 *
 * Returns a function that ends the wait (the next route change calls it).
 */
export function focusNewScreen(atNavigation: Element | null, hash: string): () => void {
  const main = document.getElementById(MAIN_ID)
  if (!main) return () => {}
  const anchor = hash.replace(/^#/, '')
  let placed: Element | null = null

  /** Focus is still the router's to move. */
  const movable = () => {
    const active = document.activeElement
    if (!active || active === document.body || active === main || active === placed || active === atNavigation) return true
    return placed === null && !main.contains(active)
  }

  /** Not hidden: React keeps the previous screen mounted under the fallback while the next one loads, with display: none. */
  const shown = (element: Element) => {
    for (let e: Element | null = element; e && e !== main; e = e.parentElement) {
      if ((e instanceof HTMLElement && e.hidden) || getComputedStyle(e).display === 'none') return false
    }
    return true
  }

  const anchorTarget = () => {
    if (!anchor) return null
    let id = anchor
    try {
      id = decodeURIComponent(anchor)
    } catch {
      // A malformed escape names the id as written.
    }
    const element = document.getElementById(id)
    return element && main.contains(element) && shown(element) ? element : null
  }

  /** Moves focus one step nearer its goal; true once there, or once focus is no longer the router's. */
  const step = (): boolean => {
    if (!movable()) return true
    const target = anchorTarget()
    const heading = [...main.querySelectorAll<HTMLElement>('h1')].find(shown) ?? null
    const best = target ?? heading ?? main
    if (best !== placed) {
      focusQuietly(best, main)
      placed = best
    }
    return anchor ? target !== null : heading !== null
  }

  if (step()) return () => {}

  let done = false
  const observer = new MutationObserver(() => {
    if (step()) stop()
  })
  const timer = window.setTimeout(() => stop(), HEADING_WAIT_MS)
  function stop() {
    if (done) return
    done = true
    observer.disconnect()
    window.clearTimeout(timer)
    for (const type of inputs) window.removeEventListener(type, stop, true)
  }
  // Screens come in as new nodes, or as old ones shown again (React unhides a boundary's content through its style).
  observer.observe(main, { childList: true, subtree: true, attributes: true, attributeFilter: ['style', 'hidden'] })
  for (const type of inputs) window.addEventListener(type, stop, { capture: true, passive: true })
  return stop
}
