import { useEffect, useRef, useState, type RefObject } from 'react'

/** Fraction of a section that must be in view before it is revealed (spec 000 §9). */
export const REVEAL_THRESHOLD = 0.1
/**
 * The spec's "bottom margin 100 px". Negative: the viewport's bottom edge is
 * pulled up by 100 px, so a section is revealed only once it is 100 px inside
 * the screen, and the visitor sees it fade in rather than it finishing off-screen.
 */
export const REVEAL_ROOT_MARGIN = '0px 0px -100px 0px'

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches
}

/**
 * Reports whether an element has been revealed: true once 10% of it has come
 * into view, and it stays true. Without IntersectionObserver, or when the
 * visitor prefers reduced motion, it is revealed at once.
 */
export function useReveal<T extends Element>(): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null)
  const [visible, setVisible] = useState(() => typeof IntersectionObserver === 'undefined' || prefersReducedMotion())

  useEffect(() => {
    const element = ref.current
    if (!element || visible) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setVisible(true)
          observer.disconnect()
        }
      },
      { threshold: REVEAL_THRESHOLD, rootMargin: REVEAL_ROOT_MARGIN },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [visible])

  return [ref, visible]
}
