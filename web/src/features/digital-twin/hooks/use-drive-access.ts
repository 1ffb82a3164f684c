import { useCallback } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { accountKeys, useMe } from '@/api/account'
import { driveAccess, isIdentityRefusal, managesTwin, type DriveAccess, type TwinOwnership } from '../lib/access'

/** Whether the caller may drive the twins, or the one twin given, from GET /api/me. */
export function useDriveAccess(twin?: TwinOwnership): DriveAccess {
  const me = useMe()
  return driveAccess(me.data, me.isError, twin)
}

/** Whether the caller may change, retire or connect the twin. */
export function useManagesTwin(twin: TwinOwnership): boolean {
  return managesTwin(useMe().data, twin)
}

/**
 * After a write failed, asks /api/me again when the server refused the
 * caller (signed out in another tab, role changed): the controls then show
 * why they are disabled, next to the server's own message.
 */
export function useRecheckIdentityOnRefusal(): (error: unknown) => void {
  const qc = useQueryClient()
  return useCallback(
    (error: unknown) => {
      if (isIdentityRefusal(error)) void qc.invalidateQueries({ queryKey: accountKeys.me })
    },
    [qc],
  )
}
