import type { FormEvent } from 'react'
import { Link, useLocation } from 'wouter'
import { Button } from '@/components/ui/button'
import { FormAlert, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { useMe, useSetUp, useSetupLink, type Me } from '@/api/account'
import { ApiError } from '@/lib/api'
import { formErrors } from '@/lib/form-errors'
import type { PageProps } from '@/lib/page'
import { AuthShell, Loading } from './components/auth-shell'
import { PasswordInput } from './components/password-input'
import { useFormState } from './components/use-form-state'
import { PASSWORD_POLICY, accountFieldLabels, checkForm, setupFormSchema, setupOrganisationSchema } from './lib/forms'
import { textLinkClass } from '@/components/ui/text-link'

const title = 'Set up Journeyman XR'

/**
 * /setup/:token: the link the server logs at its first start, while no organisation exists. It creates the
 * deployment's first organisation with its admin (a new account, or the one signed in) and signs them in.
 */
export default function SetupPage({ params }: PageProps) {
  const token = params.token ?? ''
  const link = useSetupLink(token)
  const me = useMe()

  if (link.isPending || me.isPending) {
    return (
      <AuthShell title={title}>
        <Loading label="Checking the link…" />
      </AuthShell>
    )
  }
  if (link.isError) {
    const gone = link.error instanceof ApiError && link.error.status === 404
    return (
      <AuthShell title={title}>
        <p role="alert" className="text-slate-200">
          {gone ? 'This setup link is invalid or has expired. Restart the server: it logs a new one while no organisation exists.' : formErrors(link.error, {}).form}
        </p>
      </AuthShell>
    )
  }
  if (link.data.setUp) {
    return (
      <AuthShell title={title}>
        <p className="text-slate-200">
          This deployment is set up already. <Link href="/sign-in" className={textLinkClass}>Sign in</Link>, or ask its admin for an invite.
        </p>
      </AuthShell>
    )
  }
  const account = me.data && !me.data.guest ? me.data : null
  return (
    <AuthShell
      title={title}
      description={
        account
          ? `Create your organisation. You, ${account.displayName}, become its admin, and invite its instructors and learners next.`
          : 'Create your organisation and your admin account. You invite its instructors and learners next.'
      }
    >
      <SetupForm token={token} account={account} />
    </AuthShell>
  )
}

const order = ['organisationName', 'email', 'displayName', 'password'] as const

function SetupForm({ token, account }: { token: string; account: Me | null }) {
  const form = useFormState({ organisationName: '', email: '', displayName: '', password: '' })
  const setUp = useSetUp(token)
  const [, navigate] = useLocation()
  const { values, errors } = form

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const checked = account ? checkForm(setupOrganisationSchema, values) : checkForm(setupFormSchema, values)
    if (!checked.ok) return form.fail({ fields: checked.fields }, order)
    form.setErrors({ fields: {} })
    // mutateAsync: the new identity re-renders the page, and mutate's callbacks would go with the form.
    setUp.mutateAsync(checked.values).then(
      () => navigate('/organisation?tab=invites', { replace: true }),
      (error: unknown) => {
        // A taken email (409 while the link still holds) is about the email field.
        if (!account && error instanceof ApiError && error.status === 409 && /email/i.test(error.serverMessage)) {
          return form.fail({ fields: { email: formErrors(error, {}).form } }, order)
        }
        form.fail(formErrors(error, accountFieldLabels), order)
      },
    )
  }

  return (
    <form id={form.formId} noValidate onSubmit={submit} className="space-y-4" aria-label="Set up your organisation">
      <FormField label="Organisation name" hint="Your training centre or company, as your people know it." error={errors.fields.organisationName} name="organisationName">
        {(p) => <Input {...p} name="organisationName" autoComplete="organization" value={values.organisationName} onChange={(e) => form.set('organisationName', e.target.value)} />}
      </FormField>
      {!account && (
        <>
          <FormField label="Your email" error={errors.fields.email} name="email">
            {(p) => <Input {...p} name="email" type="email" autoComplete="email" value={values.email} onChange={(e) => form.set('email', e.target.value)} />}
          </FormField>
          <FormField label="Your name" hint="How your instructors and learners see you." error={errors.fields.displayName} name="displayName">
            {(p) => <Input {...p} name="displayName" autoComplete="name" value={values.displayName} onChange={(e) => form.set('displayName', e.target.value)} />}
          </FormField>
          <FormField label="Password" hint={PASSWORD_POLICY} error={errors.fields.password} name="password">
            {(p) => <PasswordInput control={p} name="password" autoComplete="new-password" value={values.password} onChange={(v) => form.set('password', v)} />}
          </FormField>
        </>
      )}
      <FormAlert error={errors.form} fieldErrors={order.map((f) => errors.fields[f])} />
      <Button type="submit" className="w-full" disabled={setUp.isPending}>
        {setUp.isPending ? 'Setting up…' : 'Create organisation'}
      </Button>
    </form>
  )
}
