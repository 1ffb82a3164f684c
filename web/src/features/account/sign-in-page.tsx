import { useState } from 'react'
import { Link, useLocation, useSearch } from 'wouter'
import { useMe } from '@/api/account'
import { safeNextPath, signUpPath } from '@/lib/next-path'
import { AuthShell, Loading } from './components/auth-shell'
import { SignInForm } from './components/sign-in-form'
import { SignedInNotice } from './components/signed-in-notice'
import { useArrivedSignedIn } from './components/use-arrived-signed-in'
import { textLinkClass } from '@/components/ui/text-link'

/** /sign-in[?next=/path]: signs in and returns to next (a path on this site only). */
export default function SignInPage() {
  const me = useMe()
  const arrivedSignedIn = useArrivedSignedIn(me.data)
  const [signedOutHere, setSignedOutHere] = useState(false)
  const [, navigate] = useLocation()
  const next = new URLSearchParams(useSearch()).get('next')

  return (
    <AuthShell
      title="Sign in"
      description="Welcome back. Your training records and preferences follow you to any device."
      footer={
        <>
          New to Journeyman XR?{' '}
          <Link href={signUpPath(next)} className={textLinkClass}>
            Create an account
          </Link>
        </>
      }
    >
      {me.isPending ? (
        <Loading label="Checking who you are…" />
      ) : arrivedSignedIn && me.data && !me.data.guest ? (
        <SignedInNotice me={me.data} onSignedOut={() => setSignedOutHere(true)} />
      ) : (
        <>
          <SignInForm focusFirst={signedOutHere} onSignedIn={() => navigate(safeNextPath(next), { replace: true })} />
          <ForgotPassword />
        </>
      )}
    </AuthShell>
  )
}

/** Journeyman XR sends no e-mail: a new password comes by a link from an admin, or from whoever runs the server. */
function ForgotPassword() {
  return (
    <details className="mt-4 text-sm text-slate-300">
      <summary className="cursor-pointer rounded py-1 font-medium text-amber-400 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400">
        Forgot your password?
      </summary>
      <div className="mt-2 space-y-2">
        <p>
          Ask your organisation’s admin: on the Organisation page, under Members, they create a link that sets a new password, and give it to you. It
          works once, for a day.
        </p>
        <p>Not in an organisation, or its only admin? Whoever runs this server makes the same link for any account with the command:</p>
        <code className="block break-all rounded bg-slate-950 px-2 py-1 text-xs text-slate-200">journeyman admin reset-password --email you@example.com</code>
      </div>
    </details>
  )
}
