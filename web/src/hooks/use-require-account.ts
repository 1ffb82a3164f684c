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
 * What a sign-out does first: on a page only for an account, go home, and
 * say so. The page's own guard (above) would too, but only once the cache
 * is reset, and by then the page has asked for its data again as a guest.
 */
export function useLeaveAccountPage(): () => boolean {
  const [location, navigate] = useLocation()
  return () => {
    if (!needsAccount(location)) return false
    navigate('/', { replace: true })
    return true
  }
}
