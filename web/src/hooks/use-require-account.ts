import { useEffect, useRef } from 'react'
import { useLocation, useSearch } from 'wouter'
import { useMe } from '@/api/account'
import { needsAccount } from '@/app/routes'
import { signInPath } from '@/lib/next-path'

/**
 * For pages that need an account. A guest arriving here is sent to sign in
 * and brought back; someone who signs out while here goes to the home page
 * instead (sending them to sign in again would be odd).
 */
export function useRequireAccount() {
  const me = useMe()
  const [location, navigate] = useLocation()
  const search = useSearch()
  const wasSignedIn = useRef(false)
  const guest = me.data?.guest

  useEffect(() => {
    if (guest === false) wasSignedIn.current = true
    if (guest !== true) return
    if (wasSignedIn.current) navigate('/', { replace: true })
    else navigate(signInPath(location + (search ? `?${search}` : '')), { replace: true })
  }, [guest, location, search, navigate])

  return me
}

/**
 * What a sign-out does next: on a page only for an account, go home. The
 * page's own guard (above) does too, but only once the page is on screen;
 * someone who signs out while its code is still loading would otherwise
 * arrive on it as a guest and be sent to sign in.
 */
export function useLeaveAccountPage(): () => void {
  const [location, navigate] = useLocation()
  return () => {
    if (needsAccount(location)) navigate('/', { replace: true })
  }
}
