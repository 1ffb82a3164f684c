import { useState } from 'react'

/**
 * An onCloseAutoFocus for a Radix dialog's content. Radix gives focus back
 * to the dialog's Trigger; a dialog opened from state (after a request, from
 * a row's button) has none, and focus fell to the page. This gives it back
 * to what had it when the dialog opened, if that is still there.
 */
export function useReturnFocus(onCloseAutoFocus?: (e: Event) => void): (e: Event) => void {
  const [opener] = useState(() => document.activeElement)
  return (e) => {
    onCloseAutoFocus?.(e)
    if (e.defaultPrevented || !(opener instanceof HTMLElement) || opener === document.body || !opener.isConnected) return
    e.preventDefault()
    opener.focus()
  }
}
