import { useState } from 'react'
import { Link, useLocation } from 'wouter'
import { Button } from '@/components/ui/button'
import { FormAlert } from '@/components/ui/form-field'
import { roleLabels, useAcceptInvite, useInvite, useMe, type InviteInfo, type Me } from '@/api/account'
import { ApiError } from '@/lib/api'
import { formErrors } from '@/lib/form-errors'
import type { PageProps } from '@/lib/page'
import { signInPath } from '@/lib/next-path'
import { AuthShell, Loading } from './components/auth-shell'
import { SignedInNotice } from './components/signed-in-notice'
import { SignUpForm } from './components/sign-up-form'
import { useArrivedSignedIn } from './components/use-arrived-signed-in'
import { formatDateTime } from './lib/format'
import { announceJoined } from './lib/joined'
import { textLinkClass } from '@/components/ui/text-link'

function InviteDetails({ invite }: { invite: InviteInfo }) {
  return (
    <dl className="mb-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-lg border border-white/10 bg-slate-950/40 p-4 text-sm">
      <dt className="text-slate-300">Organisation</dt>
      <dd className="font-semibold text-white">{invite.organisation.name}</dd>
      <dt className="text-slate-300">Role</dt>
      <dd className="text-white">{roleLabels[invite.role]}</dd>
      <dt className="text-slate-300">Cohort</dt>
      <dd className="text-white">{invite.cohort ? invite.cohort.name : 'None'}</dd>
      <dt className="text-slate-300">Expires</dt>
      <dd className="text-white">
        <time dateTime={invite.expiresAt}>{formatDateTime(invite.expiresAt)}</time>
      </dd>
    </dl>
  )
}

/** A signed-in account without an organisation accepts with one button. */
function AcceptInvite({ token, me, invite }: { token: string; me: Me; invite: InviteInfo }) {
  const accept = useAcceptInvite()
  const [, navigate] = useLocation()
  const [error, setError] = useState('')
  return (
    <div className="space-y-4">
      <p className="text-slate-200">
        You are signed in as <strong className="text-white">{me.displayName}</strong> ({me.email}).
      </p>
      <FormAlert error={error} />
      <Button
        className="w-full"
        disabled={accept.isPending}
        onClick={() => {
          setError('')
          accept.mutateAsync(token).then(
            (joined) => {
              announceJoined(joined)
              navigate('/account')
            },
            (e: unknown) => setError(formErrors(e, {}).form ?? 'Could not accept the invite.'),
          )
        }}
      >
        {accept.isPending ? 'Joining…' : `Accept and join ${invite.organisation.name}`}
      </Button>
    </div>
  )
}

/** /invite/:token: what the invite grants, then sign up with it, or sign in and accept it. */
export default function InvitePage({ params }: PageProps) {
  const token = params.token ?? ''
  const invite = useInvite(token)
  const me = useMe()
  const arrivedSignedIn = useArrivedSignedIn(me.data)
  const [, navigate] = useLocation()
  // Signed out here (an account of another organisation): the sign-up form that follows takes focus.
  const [signedOutHere, setSignedOutHere] = useState(false)

  if (invite.isPending || me.isPending) {
    return (
      <AuthShell title="Invitation">
        <Loading label="Loading the invitation…" />
      </AuthShell>
    )
  }
  if (invite.isError) {
    const gone = invite.error instanceof ApiError && invite.error.status === 404
    return (
      <AuthShell title="Invitation">
        <p role="alert" className="text-slate-200">
          {gone ? 'This invite link is invalid, expired or used up. Ask whoever sent it for a new one.' : formErrors(invite.error, {}).form}
        </p>
      </AuthShell>
    )
  }

  const info = invite.data
  const title = `Join ${info.organisation.name}`
  const account = me.data

  if (!account || account.guest || !arrivedSignedIn) {
    return (
      <AuthShell
        title={title}
        description="Create your account to accept this invitation."
        footer={
          <>
            Already have an account?{' '}
            <Link href={signInPath(`/invite/${encodeURIComponent(token)}`)} className={textLinkClass}>
              Sign in to accept
            </Link>
          </>
        }
      >
        <InviteDetails invite={info} />
        <SignUpForm
          focusFirst={signedOutHere}
          inviteToken={token}
          onSignedUp={(joined) => {
            announceJoined(joined)
            navigate('/account')
          }}
        />
      </AuthShell>
    )
  }

  return (
    <AuthShell title={title}>
      <InviteDetails invite={info} />
      {account.organisation?.id === info.organisation.id ? (
        <p className="text-slate-200">
          You are already a member of {account.organisation.name}.{' '}
          <Link href="/account" className={textLinkClass}>
            Go to your account
          </Link>
        </p>
      ) : account.organisation ? (
        <div className="space-y-4">
          <p className="text-slate-200">
            Your account already belongs to {account.organisation.name}; an account can belong to one organisation. Sign out, then sign in
            with another account or create one to accept.
          </p>
          <SignedInNotice me={account} onSignedOut={() => setSignedOutHere(true)} />
        </div>
      ) : (
        <AcceptInvite token={token} me={account} invite={info} />
      )}
    </AuthShell>
  )
}
