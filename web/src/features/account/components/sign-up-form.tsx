import type { FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { FormAlert, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { useSignUp, type Me } from '@/api/account'
import { ApiError } from '@/lib/api'
import { formErrors } from '@/lib/form-errors'
import { PasswordInput } from './password-input'
import { useFocusOnMount } from './use-focus-on-mount'
import { useFormState } from './use-form-state'
import { PASSWORD_POLICY, accountFieldLabels, checkForm, signUpFormSchema } from '../lib/forms'

const order = ['email', 'displayName', 'password'] as const

/** Email, display name and password; with an invite token the new account joins that invite's organisation. */
export function SignUpForm({ inviteToken, onSignedUp, focusFirst }: { inviteToken?: string; onSignedUp: (me: Me) => void; focusFirst?: boolean }) {
  const email = useFocusOnMount(focusFirst)
  const form = useFormState({ email: '', displayName: '', password: '' })
  const signUp = useSignUp()
  const { values, errors } = form

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const checked = checkForm(signUpFormSchema, values)
    if (!checked.ok) {
      form.fail({ fields: checked.fields }, order)
      return
    }
    form.setErrors({ fields: {} })
    // mutateAsync: the page may swap this form out once the new identity lands, and mutate's callbacks go with it.
    signUp.mutateAsync({ ...checked.values, ...(inviteToken ? { inviteToken } : {}) }).then(onSignedUp, (error: unknown) => {
      // A taken email (409) is about the email field, whatever else it says.
      if (error instanceof ApiError && error.status === 409) {
        form.fail({ fields: { email: formErrors(error, {}).form } }, order)
        return
      }
      const found = formErrors(error, accountFieldLabels)
      const { inviteToken: inviteProblem, ...fields } = found.fields
      // The invite is not a field the visitor can fix here: its problem reads as the form's.
      form.fail({ fields, form: [found.form, inviteProblem].filter(Boolean).join(' ') || undefined }, order)
    })
  }

  return (
    <form id={form.formId} noValidate onSubmit={submit} className="space-y-4" aria-label="Create your account">
      <FormField label="Email" error={errors.fields.email} name="email">
        {(p) => <Input {...p} ref={email} name="email" type="email" autoComplete="email" value={values.email} onChange={(e) => form.set('email', e.target.value)} />}
      </FormField>
      <FormField label="Display name" hint="How instructors and other learners see you." error={errors.fields.displayName} name="displayName">
        {(p) => <Input {...p} name="displayName" autoComplete="name" value={values.displayName} onChange={(e) => form.set('displayName', e.target.value)} />}
      </FormField>
      <FormField label="Password" hint={PASSWORD_POLICY} error={errors.fields.password} name="password">
        {(p) => <PasswordInput control={p} name="password" autoComplete="new-password" value={values.password} onChange={(v) => form.set('password', v)} />}
      </FormField>
      <FormAlert error={errors.form} fieldErrors={order.map((f) => errors.fields[f])} />
      <Button type="submit" className="w-full" disabled={signUp.isPending}>
        {signUp.isPending ? 'Creating your account…' : 'Create account'}
      </Button>
    </form>
  )
}
