import { useId, type ReactNode } from 'react'
import { Label } from '@/components/ui/label'
import { cn } from '@/lib/utils'

/** What a control needs to be tied to its label, hint and error. */
export interface FieldControlProps {
  id: string
  'aria-invalid': true | undefined
  'aria-describedby': string | undefined
}

export interface FormFieldProps {
  label: ReactNode
  /** Stated up front, before anything goes wrong (a password policy, say). */
  hint?: ReactNode
  error?: string
  className?: string
  /** The field's name, for finding it when its error should take focus. */
  name?: string
  children: (control: FieldControlProps) => ReactNode
}

/**
 * A labelled control with its hint and error. The control is described by
 * both, so a screen reader reads the rule and the problem when it gets focus;
 * the error is in the live region of the form (FormAlert), not announced here
 * twice.
 */
export function FormField({ label, hint, error, className, name, children }: FormFieldProps) {
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined
  return (
    <div className={cn('space-y-1.5', className)} data-field={name}>
      <Label htmlFor={id}>{label}</Label>
      {hint && (
        <p id={hintId} className="text-xs text-slate-300">
          {hint}
        </p>
      )}
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {error && (
        <p id={errorId} className="text-sm text-red-300">
          {error}
        </p>
      )}
    </div>
  )
}

/**
 * A form's announcements: the form-level error shown as an alert, the field
 * errors read out in the same alert but not shown twice (each is under its
 * field), and a success as a status. The regions are rendered empty from the
 * start, because screen readers only announce changes to a region they
 * already know.
 */
export function FormAlert({
  error,
  fieldErrors = [],
  success,
  className,
}: {
  error?: string
  fieldErrors?: readonly (string | undefined)[]
  success?: string
  className?: string
}) {
  const fields = fieldErrors.filter(Boolean)
  return (
    <>
      <div role="alert" className={cn(error && 'rounded-md border border-red-500/40 bg-red-500/10 px-3 py-2 text-sm text-red-200', className)}>
        {error}
        {fields.length > 0 && <span className="sr-only"> {fields.join(' ')}</span>}
      </div>
      <div role="status" className={cn(success && 'rounded-md border border-emerald-500/40 bg-emerald-500/10 px-3 py-2 text-sm text-emerald-200', className)}>
        {success}
      </div>
    </>
  )
}

/** The class of a native <select>, matching Input. */
export const selectClass =
  'h-10 w-full rounded-md border border-white/20 bg-slate-900 px-3 text-sm text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 aria-[invalid=true]:border-red-500 disabled:opacity-50'
