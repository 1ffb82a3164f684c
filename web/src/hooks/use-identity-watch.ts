import { useEffect } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { accountKeys, getMe, switchIdentity, type Me } from '@/api/account'

/** A page shown again within this long is not asked again. */
const RECHECK_AFTER_MS = 5000

/** Whether two answers of /api/me are different identities for the pages: another person, role or organisation. */
export function identityChanged(before: Me, now: Me): boolean {
  return before.id !== now.id || before.role !== now.role || (before.organisation?.id ?? null) !== (now.organisation?.id ?? null)
}

/**
 * Who this page is can change elsewhere: a sign-out in another tab or
 * everywhere, an admin's new role for the person, their removal from the
 * organisation. When the page is shown again (its tab or window comes back),
 * /api/me is asked again, and a different identity resets every per-user
 * answer as a sign-in does, so menus and pages stop offering what the
 * person may no longer do.
 */
export function useIdentityWatch(): void {
  const queryClient = useQueryClient()
  useEffect(() => {
    let last = 0
    const check = () => {
      if (document.visibilityState !== 'visible' || Date.now() - last < RECHECK_AFTER_MS) return
      const before = queryClient.getQueryData<Me>(accountKeys.me)
      if (!before) return
      last = Date.now()
      getMe().then(
        (now) => {
          // A sign-in or sign-out in this tab while the answer was on its way wins.
          if (queryClient.getQueryData<Me>(accountKeys.me) !== before) return
          if (identityChanged(before, now)) void switchIdentity(queryClient, now)
          else queryClient.setQueryData(accountKeys.me, now) // a new display name, say
        },
        () => {}, // offline: the next return asks again
      )
    }
    document.addEventListener('visibilitychange', check)
    window.addEventListener('focus', check)
    return () => {
      document.removeEventListener('visibilitychange', check)
      window.removeEventListener('focus', check)
    }
  }, [queryClient])
}
