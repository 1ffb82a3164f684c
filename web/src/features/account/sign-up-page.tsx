import { useState } from 'react'
import { Link, useLocation, useSearch } from 'wouter'
import { roleLabels, useInvite, useMe } from '@/api/account'
import { safeNextPath, signInPath } from '@/lib/next-path'
import { AuthShell, Loading } from './components/auth-shell'
import { SignUpForm } from './components/sign-up-form'
import { SignedInNotice } from './components/signed-in-notice'
import { useArrivedSignedIn } from './components/use-arrived-signed-in'
import { announceJoined } from './lib/joined'
import { textLinkClass } from '@/components/ui/text-link'

/** What an invite token passed as ?invite= grants, above the form. */
function InviteSummary({ token }: { token: string }) {
  const invite = useInvite(token)
  if (invite.isPending) return null
  if (invite.isError) {
    return (
      <p className="mb-4 rounded-md border border-red-500/40 bg-red-500/10 px-3 py-2 text-sm text-red-200">
        This invite link is invalid, expired or used up. You can still create an account of your own.
      </p>
    )
  }
  const { organisation, role, cohort } = invite.data
  return (
    <p className="mb-4 rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm text-amber-100">
      You are joining <strong>{organisation.name}</strong> as {roleLabels[role].toLowerCase()}
      {cohort ? <> in the cohort {cohort.name}</> : null}.
    </p>
  )
}

/** /sign-up[?invite=TOKEN][&next=/path]: creates an account; what the guest did so far moves into it. */
export default function SignUpPage() {
  const me = useMe()
  const arrivedSignedIn = useArrivedSignedIn(me.data)
  const [signedOutHere, setSignedOutHere] = useState(false)
  const [, navigate] = useLocation()
  const params = new URLSearchParams(useSearch())
  const invite = params.get('invite') ?? undefined
  const next = params.get('next')

  return (
    <AuthShell
      title="Create your account"
      description="Keep your progress: any training sessions and preferences from this browser move into your new account."
      footer={
        <>
          Already have an account?{' '}
          <Link href={signInPath(invite ? `/invite/${encodeURIComponent(invite)}` : next)} className={textLinkClass}>
            Sign in
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
          {invite && <InviteSummary token={invite} />}
          <SignUpForm
            focusFirst={signedOutHere}
            inviteToken={invite}
            onSignedUp={(joined) => {
              if (invite) announceJoined(joined)
              navigate(safeNextPath(next), { replace: true })
            }}
          />
        </>
      )}
    </AuthShell>
  )
}
