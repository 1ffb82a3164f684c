import { useEffect, useRef } from 'react'

/**
 * A ref for the field to focus when the form appears, if focus is asked
 * for: signing out from the "you are signed in" notice removes the button
 * that had focus, and the form that replaces it is where the visitor goes
 * on from.
 */
export function useFocusOnMount(focus: boolean | undefined) {
  const ref = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (focus) ref.current?.focus()
  }, [focus])
  return ref
}
