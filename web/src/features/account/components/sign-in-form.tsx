import type { FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { FormAlert, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { useSignIn, type Me } from '@/api/account'
import { ApiError } from '@/lib/api'
import { formErrors } from '@/lib/form-errors'
import { PasswordInput } from './password-input'
import { useFocusOnMount } from './use-focus-on-mount'
import { useFormState } from './use-form-state'
import { accountFieldLabels, checkForm, signInFormSchema } from '../lib/forms'

const order = ['email', 'password'] as const

/**
 * Email and password. A wrong email or password gets the server's one
 * message for both (never which was wrong), shown for the form rather than
 * under a field; a throttle says how long to wait.
 */
export function SignInForm({ onSignedIn, focusFirst }: { onSignedIn: (me: Me) => void; focusFirst?: boolean }) {
  const email = useFocusOnMount(focusFirst)
  const form = useFormState({ email: '', password: '' })
  const signIn = useSignIn()
  const { values, errors } = form

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const checked = checkForm(signInFormSchema, values)
    if (!checked.ok) {
      form.fail({ fields: checked.fields }, order)
      return
    }
    form.setErrors({ fields: {} })
    // mutateAsync: the page may swap this form out once the new identity lands, and mutate's callbacks go with it.
    signIn.mutateAsync(checked.values).then(onSignedIn, (error: unknown) => {
      if (error instanceof ApiError && error.status === 401) {
        form.fail({ fields: {}, form: formErrors(error, {}).form }, order)
        form.set('password', '')
        return
      }
      form.fail(formErrors(error, accountFieldLabels), order)
    })
  }

  return (
    <form id={form.formId} noValidate onSubmit={submit} className="space-y-4" aria-label="Sign in">
      <FormField label="Email" error={errors.fields.email} name="email">
        {(p) => <Input {...p} ref={email} name="email" type="email" autoComplete="username" value={values.email} onChange={(e) => form.set('email', e.target.value)} />}
      </FormField>
      <FormField label="Password" error={errors.fields.password} name="password">
        {(p) => <PasswordInput control={p} name="password" autoComplete="current-password" value={values.password} onChange={(v) => form.set('password', v)} />}
      </FormField>
      <FormAlert error={errors.form} fieldErrors={order.map((f) => errors.fields[f])} />
      <Button type="submit" className="w-full" disabled={signIn.isPending}>
        {signIn.isPending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  )
}
