import { useCallback, useLayoutEffect, useRef, type RefObject } from 'react'

/**
 * Focus for a list whose rows each have a Remove button. The pressed button
 * leaves with its row, and a dialog would hand focus back to it: once the
 * row is gone, focus moves to the next row's button, else the previous
 * one's, else `fallback`. `register(id)` is the ref of a row's button;
 * `start(id)` goes before the removal is asked for, `cancel()` when it failed.
 */
export function useFocusAfterRemoval(rows: readonly { id: string }[], fallback: RefObject<HTMLElement | null>) {
  const buttons = useRef(new Map<string, HTMLElement>())
  // The removal under way: who goes, and the list as it was, for finding a neighbour.
  const removing = useRef<{ id: string; order: string[] } | null>(null)

  // Layout effect: focus moves before the browser paints the list with focus on <body>.
  useLayoutEffect(() => {
    const pending = removing.current
    if (!pending || rows.some((r) => r.id === pending.id)) return
    removing.current = null
    ;(neighbourControl(pending.order, pending.id, buttons.current) ?? fallback.current)?.focus()
  }, [rows, fallback])

  const register = useCallback(
    (id: string) => (el: HTMLElement | null) => {
      if (el) buttons.current.set(id, el)
      else buttons.current.delete(id)
    },
    [],
  )
  const start = useCallback((id: string) => (removing.current = { id, order: rows.map((r) => r.id) }), [rows])
  const cancel = useCallback(() => (removing.current = null), [])
  return { register, start, cancel }
}

/**
 * Where focus goes once the item `id` left a list that was `order`: the
 * control of the next item still on the page, else of the previous one.
 */
function neighbourControl<E extends HTMLElement>(order: string[], id: string, controls: Map<string, E>): E | undefined {
  const at = order.indexOf(id)
  const after = order.slice(at + 1)
  const before = order.slice(0, at).reverse()
  return [...after, ...before].map((other) => controls.get(other)).find((c) => c?.isConnected)
}
