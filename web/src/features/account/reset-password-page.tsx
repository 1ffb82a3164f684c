import type { FormEvent } from 'react'
import { useLocation } from 'wouter'
import { Button } from '@/components/ui/button'
import { FormAlert, FormField } from '@/components/ui/form-field'
import { usePasswordReset, useResetPassword } from '@/api/account'
import { ApiError } from '@/lib/api'
import { formErrors } from '@/lib/form-errors'
import type { PageProps } from '@/lib/page'
import { AuthShell, Loading } from './components/auth-shell'
import { PasswordInput } from './components/password-input'
import { useFormState } from './components/use-form-state'
import { PASSWORD_POLICY, checkForm, resetPasswordFormSchema } from './lib/forms'

/** /reset-password/:token: a link from an admin (a reset, or a new account's setup) sets the password and signs in. */
export default function ResetPasswordPage({ params }: PageProps) {
  const token = params.token ?? ''
  const reset = usePasswordReset(token)

  if (reset.isPending) {
    return (
      <AuthShell title="Set a new password">
        <Loading label="Checking the link…" />
      </AuthShell>
    )
  }
  if (reset.isError) {
    const gone = reset.error instanceof ApiError && reset.error.status === 404
    return (
      <AuthShell title="Set a new password">
        <p role="alert" className="text-slate-200">
          {gone ? 'This link is invalid or has expired. Ask your organisation’s admin for a new one.' : formErrors(reset.error, {}).form}
        </p>
      </AuthShell>
    )
  }
  return (
    <AuthShell title="Set a new password" description={<>For {reset.data.email}. You will be signed in once it is set.</>}>
      <ResetForm token={token} />
    </AuthShell>
  )
}

function ResetForm({ token }: { token: string }) {
  const form = useFormState({ password: '' })
  const resetPassword = useResetPassword()
  const [, navigate] = useLocation()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const checked = checkForm(resetPasswordFormSchema, form.values)
    if (!checked.ok) return form.fail({ fields: checked.fields }, ['password'])
    form.setErrors({ fields: {} })
    resetPassword.mutateAsync({ token, password: checked.values.password }).then(
      () => navigate('/account', { replace: true }),
      (error: unknown) => form.fail(formErrors(error, { password: 'new password' }), ['password']),
    )
  }

  return (
    <form id={form.formId} noValidate onSubmit={submit} className="space-y-4" aria-label="Set a new password">
      <FormField label="New password" hint={PASSWORD_POLICY} error={form.errors.fields.password} name="password">
        {(p) => <PasswordInput control={p} name="password" autoComplete="new-password" value={form.values.password} onChange={(v) => form.set('password', v)} />}
      </FormField>
      <FormAlert error={form.errors.form} fieldErrors={[form.errors.fields.password]} />
      <Button type="submit" className="w-full" disabled={resetPassword.isPending}>
        {resetPassword.isPending ? 'Saving…' : 'Set password and sign in'}
      </Button>
    </form>
  )
}
