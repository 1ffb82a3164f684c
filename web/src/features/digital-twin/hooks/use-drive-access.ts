import { useCallback } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { accountKeys, useMe } from '@/api/account'
import { driveAccess, isIdentityRefusal, type DriveAccess } from '../lib/access'

/** Whether the caller may drive the twins, from GET /api/me. */
export function useDriveAccess(): DriveAccess {
  const me = useMe()
  return driveAccess(me.data, me.isError)
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
