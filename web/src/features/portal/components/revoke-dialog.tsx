import { useId, type ComponentProps } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { FormAlert, FormField } from '@/components/ui/form-field'
import { Textarea } from '@/components/ui/input'
import { revokeFormSchema, type ModuleCompetency } from '../lib/competencies'
import { formatDateTime } from '../lib/format'

/**
 * Asks why a sign-off is revoked, then revokes it. Open while competency is
 * set; each opening starts with an empty reason. The caller does the
 * revoking (and closes the dialog when it is done), so the result outlives
 * the dialog.
 */
export function RevokeDialog({
  competency,
  moduleTitle,
  pending,
  error,
  onSubmit,
  onOpenChange,
  onCloseAutoFocus,
}: {
  competency: ModuleCompetency | null
  moduleTitle: string
  pending: boolean
  /** The server's refusal, shown in the dialog's alert. */
  error: string | undefined
  onSubmit: (reason: string) => void
  onOpenChange: (open: boolean) => void
  onCloseAutoFocus: ComponentProps<typeof DialogContent>['onCloseAutoFocus']
}) {
  return (
    <Dialog open={competency !== null} onOpenChange={(open) => !pending && onOpenChange(open)}>
      {competency && (
        <RevokeContent key={competency.index} competency={competency} moduleTitle={moduleTitle} pending={pending} error={error} onSubmit={onSubmit} onCloseAutoFocus={onCloseAutoFocus} />
      )}
    </Dialog>
  )
}

function RevokeContent({
  competency: c,
  moduleTitle,
  pending,
  error,
  onSubmit,
  onCloseAutoFocus,
}: {
  competency: ModuleCompetency
  moduleTitle: string
  pending: boolean
  error: string | undefined
  onSubmit: (reason: string) => void
  onCloseAutoFocus: ComponentProps<typeof DialogContent>['onCloseAutoFocus']
}) {
  const id = useId()
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(revokeFormSchema), defaultValues: { note: '' } })
  const s = c.signOff

  return (
    <DialogContent aria-describedby={`${id}-description`} onCloseAutoFocus={onCloseAutoFocus}>
      <DialogTitle>Revoke a sign-off</DialogTitle>
      <DialogDescription id={`${id}-description`}>
        “{c.objective}” ({moduleTitle}){s && `, signed off by ${s.signedBy.name} on ${formatDateTime(s.signedAt)}`}. The learner will no longer hold it, and a certificate of the programme that lists it is revoked too.
      </DialogDescription>
      <form noValidate onSubmit={handleSubmit((values) => onSubmit(values.note))} className="mt-5 space-y-4">
        <FormField label="Reason (required)" hint="Kept in the history, and on any certificate this revokes." error={errors.note?.message} name="note">
          {(p) => <Textarea {...p} {...register('note')} rows={3} />}
        </FormField>
        <FormAlert error={error} fieldErrors={[errors.note?.message]} />
        <div className="flex flex-wrap justify-end gap-2 pt-1">
          <DialogClose asChild>
            <Button variant="ghost" disabled={pending}>
              Cancel
            </Button>
          </DialogClose>
          <Button type="submit" variant="destructive" disabled={pending}>
            {pending ? 'Revoking…' : 'Revoke sign-off'}
          </Button>
        </div>
      </form>
    </DialogContent>
  )
}
