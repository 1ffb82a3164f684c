import { useEffect, useState } from 'react'

/** The class the learner's personalization may put on <html> to ask for less motion. */
export const REDUCE_MOTION_CLASS = 'reduce-motion'

/** True when the system or the learner's personalization asks for reduced motion. */
export function wantsReducedMotion(): boolean {
  if (typeof document === 'undefined') return false
  const system = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches
  return system || document.documentElement.classList.contains(REDUCE_MOTION_CLASS)
}

/** wantsReducedMotion(), kept current as either source changes. */
export function useReducedMotion(): boolean {
  const [reduced, setReduced] = useState(wantsReducedMotion)
  useEffect(() => {
    const update = () => setReduced(wantsReducedMotion())
    const query = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-reduced-motion: reduce)') : null
    query?.addEventListener('change', update)
    const observer = new MutationObserver(update)
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] })
    return () => {
      query?.removeEventListener('change', update)
      observer.disconnect()
    }
  }, [])
  return reduced
}
