import { useEffect, useRef } from 'react'
import { useLocation, useSearch } from 'wouter'
import { useMe } from '@/api/account'
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
