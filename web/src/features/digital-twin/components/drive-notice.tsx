import { Lock } from 'lucide-react'
import { Link, useLocation } from 'wouter'
import { DRIVE_EXPLANATION, DRIVE_SIGN_IN, signInHref, type DriveAccess } from '../lib/access'

/** Why a control that drives a twin is disabled, with the way to sign in where signing in is the way. Nothing when the caller may drive. */
export function DriveNotice({ access, id }: { access: DriveAccess; id: string }) {
  const [location] = useLocation()
  if (access.state !== 'denied') return null
  return (
    <p id={id} className="flex items-start gap-2 text-sm text-slate-200" data-testid="drive-notice">
      <Lock className="mt-0.5 h-4 w-4 shrink-0 text-amber-300" aria-hidden="true" />
      {access.signIn === false ? (
        <span>{access.why}</span>
      ) : (
        <span>
          <Link href={signInHref(location)} className="font-medium text-sky-300 underline underline-offset-2 hover:text-sky-200">
            {DRIVE_SIGN_IN}
          </Link>{' '}
          {DRIVE_EXPLANATION}
          {access.why && ` ${access.why}`}
        </span>
      )}
    </p>
  )
}
