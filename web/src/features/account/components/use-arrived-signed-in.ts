import { useState } from 'react'
import type { Me } from '@/api/account'

/**
 * Whether the visitor was already signed in when this page first learned
 * who they are. Signing in on the page does not change it, so the form stays
 * on screen (saying it is busy) until the page moves on, instead of flashing
 * "you are signed in" first.
 */
export function useArrivedSignedIn(me: Me | undefined): boolean {
  const [arrived, setArrived] = useState<boolean | undefined>(undefined)
  if (arrived === undefined && me) {
    // Derived once from the first answer (setState during render is React's way for this).
    setArrived(!me.guest)
  }
  return arrived ?? (!!me && !me.guest)
}
