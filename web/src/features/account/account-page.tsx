import { useState, type FormEvent, type ReactNode } from 'react'
import { Link } from 'wouter'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { FormAlert, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { canManageOrganisation, roleLabels, useChangePassword, useSignOut, useSignOutEverywhere, useUpdateAccount, type Me } from '@/api/account'
import { useLeaveAccountPage, useRequireAccount } from '@/hooks/use-require-account'
import { toast } from '@/hooks/use-toast'
import { usePersonalization } from '@/api/personalization'
import { formErrors } from '@/lib/form-errors'
import { useXrSessions } from '@/api/xr-sessions'
import { useCompetencies } from '@/api/certificates'
import { Badge } from '@/components/ui/badge'
import { Progress } from '@/components/ui/progress'
import { PasswordInput } from './components/password-input'
import { Loading } from './components/auth-shell'
import { useFormState } from './components/use-form-state'
import { certificateSummary } from './lib/certificates'
import { formatDate } from './lib/format'
import { PASSWORD_POLICY, accountFieldLabels, changePasswordFormSchema, checkForm, displayNameFormSchema } from './lib/forms'

/** /account: who you are, your records, your name and password, and signing out. */
export default function AccountPage() {
  const me = useRequireAccount()
  return (
    <section className="mx-auto w-full max-w-4xl px-4 py-12 sm:px-6 sm:py-16">
      <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">Your account</h1>
      {me.isError ? (
        <p role="alert" className="mt-6 text-red-200">
          Could not load your account. Reload the page to try again.
        </p>
      ) : !me.data || me.data.guest ? (
        <div className="mt-6">
          <Loading label="Loading your account…" />
        </div>
      ) : (
        <AccountSections me={me.data} />
      )}
    </section>
  )
}

function AccountSections({ me }: { me: Me }) {
  return (
    <div className="mt-8 grid items-start gap-6 lg:grid-cols-2">
      <Profile me={me} />
      <Records me={me} />
      <Certificates me={me} />
      <DisplayNameForm me={me} />
      <ChangePasswordForm />
      <Sessions />
    </div>
  )
}

function Item({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 sm:flex-row sm:gap-3">
      <dt className="w-32 shrink-0 text-sm text-slate-300">{term}</dt>
      <dd className="min-w-0 break-words text-white">{children}</dd>
    </div>
  )
}

function Profile({ me }: { me: Me }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Profile</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="space-y-3">
          <Item term="Display name">{me.displayName}</Item>
          <Item term="Email">{me.email}</Item>
          <Item term="Role">{roleLabels[me.role]}</Item>
          <Item term="Organisation">{me.organisation ? me.organisation.name : 'None (individual learner)'}</Item>
        </dl>
        {canManageOrganisation(me) && (
          <Button asChild variant="outline" className="mt-5">
            <Link href="/organisation">Manage {me.organisation?.name}</Link>
          </Button>
        )}
      </CardContent>
    </Card>
  )
}

const sessionCount = (list: readonly unknown[]) => list.length

/** What this account holds, including anything carried over from the guest it was made from. */
function Records({ me }: { me: Me }) {
  const sessions = useXrSessions(me.id, { select: sessionCount })
  const preferences = usePersonalization()
  // Never saved, the answer is the wizard's defaults: there is nothing to show as this account's.
  const saved = preferences.data?.saved ? preferences.data : null
  const count = sessions.data
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Your training</CardTitle>
        <CardDescription>Your sessions and preferences, with anything you did as a guest in this browser before signing up.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="space-y-3">
          <Item term="XR sessions">
            {sessions.isPending ? 'Loading…' : sessions.isError ? 'Could not load' : `${count} ${count === 1 ? 'session' : 'sessions'}`}{' '}
            <Link href="/learning-hub" className="ml-1 text-sm text-amber-400 underline-offset-4 hover:underline">
              Learning Hub
            </Link>
          </Item>
          <Item term="Preferences">
            {preferences.isPending ? 'Loading…' : saved ? 'Saved' : 'Not set yet'}
            {saved?.primaryTrade ? ` (primary trade: ${saved.primaryTrade})` : ''}{' '}
            <Link href="/personalization" className="ml-1 text-sm text-amber-400 underline-offset-4 hover:underline">
              {saved ? 'Change' : 'Personalize'}
            </Link>
          </Item>
        </dl>
      </CardContent>
    </Card>
  )
}

/** The learner's certificates, each to open and print, and how far they are through the programmes they started. */
function Certificates({ me }: { me: Me }) {
  const summary = useCompetencies(me.id, { select: certificateSummary })
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Certificates</CardTitle>
        <CardDescription>Issued when an instructor has signed off every competency of a programme.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        {summary.isPending ? (
          <p role="status" className="text-slate-300">
            Loading your certificates…
          </p>
        ) : summary.isError ? (
          <p role="alert" className="text-red-200">
            Could not load your certificates. Reload the page to try again.
          </p>
        ) : (
          <>
            {summary.data.certificates.length === 0 ? (
              <p className="text-slate-300">No certificates yet.</p>
            ) : (
              <ul className="divide-y divide-white/10" aria-label="Your certificates">
                {summary.data.certificates.map((c) => (
                  <li key={c.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2.5 first:pt-0 last:pb-0" data-certificate={c.certificate.code}>
                    <span className="min-w-0">
                      <Link href={`/certificates/${c.id}`} className="font-semibold text-amber-400 underline-offset-4 hover:underline">
                        {c.certificate.programme}
                      </Link>
                      <span className="block text-xs text-slate-300">
                        Issued {formatDate(c.certificate.issuedAt)} · <span className="font-mono">{c.certificate.code}</span>
                      </span>
                    </span>
                    {c.revokedAt ? (
                      <Badge variant="live">Revoked</Badge>
                    ) : (
                      <Badge variant="outline" className="border-emerald-400/60 text-emerald-300">
                        Valid
                      </Badge>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {summary.data.started.length > 0 && (
              <div>
                <h3 className="text-sm font-semibold text-white">Progress by programme</h3>
                <ul className="mt-2 space-y-3">
                  {summary.data.started.map((p) => (
                    <li key={p.id}>
                      <div className="flex justify-between gap-3 text-sm">
                        <span className="text-slate-200">{p.name}</span>
                        <span className="shrink-0 text-slate-300">
                          {p.held} / {p.total}
                          <span className="sr-only"> competencies signed off</span>
                        </span>
                      </div>
                      <Progress className="mt-1.5" value={(100 * p.held) / Math.max(1, p.total)} aria-label={`${p.name}: ${p.held} of ${p.total} competencies signed off`} />
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </>
        )}
      </CardContent>
    </Card>
  )
}

function DisplayNameForm({ me }: { me: Me }) {
  const form = useFormState({ displayName: me.displayName })
  const update = useUpdateAccount()
  const [saved, setSaved] = useState('')

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSaved('')
    const checked = checkForm(displayNameFormSchema, form.values)
    if (!checked.ok) return form.fail({ fields: checked.fields }, ['displayName'])
    form.setErrors({ fields: {} })
    update.mutate(checked.values, {
      onSuccess: (updated) => {
        form.reset({ displayName: updated.displayName })
        setSaved('Your display name is saved.')
      },
      onError: (error) => form.fail(formErrors(error, accountFieldLabels), ['displayName']),
    })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Display name</CardTitle>
      </CardHeader>
      <CardContent>
        <form id={form.formId} noValidate onSubmit={submit} className="space-y-4" aria-label="Display name">
          <FormField label="Display name" hint="Up to 80 characters." error={form.errors.fields.displayName} name="displayName">
            {(p) => (
              <Input
                {...p}
                name="displayName"
                autoComplete="name"
                value={form.values.displayName}
                onChange={(e) => {
                  setSaved('')
                  form.set('displayName', e.target.value)
                }}
              />
            )}
          </FormField>
          <FormAlert error={form.errors.form} fieldErrors={[form.errors.fields.displayName]} success={saved} />
          <Button type="submit" unavailable={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save name'}
          </Button>
        </form>
      </CardContent>
    </Card>
  )
}

const passwordOrder = ['currentPassword', 'newPassword'] as const

function ChangePasswordForm() {
  const form = useFormState({ currentPassword: '', newPassword: '' })
  const change = useChangePassword()
  const [saved, setSaved] = useState('')

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSaved('')
    const checked = checkForm(changePasswordFormSchema, form.values)
    if (!checked.ok) return form.fail({ fields: checked.fields }, passwordOrder)
    form.setErrors({ fields: {} })
    change.mutate(checked.values, {
      onSuccess: () => {
        form.reset({ currentPassword: '', newPassword: '' })
        setSaved('Your password is changed. Every other device signed in to this account is now signed out.')
      },
      onError: (error) => form.fail(formErrors(error, accountFieldLabels), passwordOrder),
    })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Change password</CardTitle>
        <CardDescription>Other devices signed in to this account are signed out; this one stays signed in.</CardDescription>
      </CardHeader>
      <CardContent>
        <form id={form.formId} noValidate onSubmit={submit} className="space-y-4" aria-label="Change password">
          <FormField label="Current password" error={form.errors.fields.currentPassword} name="currentPassword">
            {(p) => (
              <PasswordInput control={p} name="currentPassword" autoComplete="current-password" value={form.values.currentPassword} onChange={(v) => form.set('currentPassword', v)} />
            )}
          </FormField>
          <FormField label="New password" hint={PASSWORD_POLICY} error={form.errors.fields.newPassword} name="newPassword">
            {(p) => <PasswordInput control={p} name="newPassword" autoComplete="new-password" value={form.values.newPassword} onChange={(v) => form.set('newPassword', v)} />}
          </FormField>
          <FormAlert error={form.errors.form} fieldErrors={passwordOrder.map((f) => form.errors.fields[f])} success={saved} />
          <Button type="submit" unavailable={change.isPending}>
            {change.isPending ? 'Changing…' : 'Change password'}
          </Button>
        </form>
      </CardContent>
    </Card>
  )
}

function Sessions() {
  const leave = useLeaveAccountPage()
  const signOut = useSignOut(leave)
  const everywhere = useSignOutEverywhere(leave)
  const [error, setError] = useState('')
  const [confirming, setConfirming] = useState(false)
  // mutateAsync rather than mutate's callbacks: signing out leaves this page, and
  // callbacks given to mutate are dropped once the component is gone.
  const run = (mutation: typeof signOut, description: string) => () => {
    setError('')
    mutation.mutateAsync().then(
      () => toast({ title: 'Signed out', description }),
      (e: unknown) => setError(formErrors(e, {}).form ?? 'Could not sign out.'),
    )
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Signing out</CardTitle>
        <CardDescription>Sign out of this browser, or of every device where this account is signed in, this one included.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" disabled={signOut.isPending || everywhere.isPending} onClick={run(signOut, 'You are signed out of this browser.')}>
            Sign out
          </Button>
          <Button variant="destructive" disabled={signOut.isPending || everywhere.isPending} onClick={() => setConfirming(true)}>
            Sign out everywhere
          </Button>
        </div>
        {!confirming && <FormAlert error={error} />}
        <ConfirmDialog
          open={confirming}
          title="Sign out everywhere?"
          description="Every browser and headset signed in to this account is signed out, this one included, and any training session open on them stops saving. Sign in again where you need to."
          confirmLabel="Sign out everywhere"
          pendingLabel="Signing out…"
          pending={everywhere.isPending}
          error={error || undefined}
          onCancel={() => {
            setConfirming(false)
            setError('')
          }}
          onConfirm={run(everywhere, 'Every session of your account has ended.')}
        />
      </CardContent>
    </Card>
  )
}
