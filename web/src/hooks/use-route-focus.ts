import { useEffect, useRef } from 'react'
import { focusNewScreen } from '@/lib/route-focus'

/** What shows the person acted: a redirect before any of it is part of the page's first load. */
const actions = ['pointerdown', 'keydown', 'click'] as const
/** How the address changes: wouter's navigate fires pushState and replaceState events, the browser's back and forward popstate. */
const historyEvents = ['pushState', 'replaceState', 'popstate'] as const

/**
 * Moves focus to the new screen after a client-side route change
 * (lib/route-focus.ts), so a keyboard or screen reader user is told a new
 * page loaded. `location` is the path only: a change of the query string
 * (a tab, a filter; the page keeps its own focus) or of the #anchor on the
 * same page does not move focus. The first load does not either, so the
 * skip link stays first in the Tab order; nor does a redirect made before
 * the person did anything (a guest opening an account page is sent to sign
 * in), which is still the first load to them.
 */
export function useRouteFocus(location: string): void {
  const shown = useRef(location)
  const acted = useRef(false)
  /** The element that had focus when the address changed: the link followed, if the screen kept it. */
  const atNavigation = useRef<Element | null>(null)

  useEffect(() => {
    const onAction = () => {
      acted.current = true
    }
    const onHistory = (event: Event) => {
      atNavigation.current = document.activeElement
      if (event.type === 'popstate') acted.current = true
    }
    for (const type of actions) window.addEventListener(type, onAction, { capture: true, passive: true })
    for (const type of historyEvents) window.addEventListener(type, onHistory)
    return () => {
      for (const type of actions) window.removeEventListener(type, onAction, { capture: true })
      for (const type of historyEvents) window.removeEventListener(type, onHistory)
    }
  }, [])

  useEffect(() => {
    if (shown.current === location) return
    shown.current = location
    if (!acted.current) return
    return focusNewScreen(atNavigation.current, window.location.hash)
  }, [location])
}
