import { useId, useState, type ReactNode } from 'react'
import { useForm, type UseFormRegisterReturn } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { CheckCircle2 } from 'lucide-react'
import { Button, type ButtonProps } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from '@/components/ui/dialog'
import { Input, Textarea } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { toast } from '@/hooks/use-toast'
import { cn } from '@/lib/utils'
import { demoRequestFields, useCreateDemoRequest, type DemoRequest, type DemoRequestField, type DemoRequestInput } from '@/api/demo-requests'
import { submissionErrors } from './field-errors'
import { demoRequestFormSchema } from './form-schema'

/** The areas a visitor can ask about; a page opening the form preselects one. */
export const demoInterests: readonly { value: string; label: string }[] = [
  { value: '', label: 'No preference' },
  { value: 'vr-training', label: 'Immersive VR training' },
  { value: 'analytics', label: 'Analytics and reporting' },
  { value: 'authoring', label: 'XR content authoring' },
  { value: 'digital-twin', label: 'Digital twins' },
  { value: 'live-demo', label: 'Live XR demo' },
  { value: 'electrical', label: 'Electrical' },
  { value: 'plumbing', label: 'Plumbing' },
  { value: 'hvac', label: 'HVAC' },
  { value: 'welding', label: 'Welding' },
  { value: 'construction', label: 'Construction' },
  { value: 'automotive', label: 'Automotive' },
  { value: 'manufacturing', label: 'Manufacturing' },
  { value: 'solar-wind', label: 'Solar & wind' },
]

const emptyForm = (interest: string): DemoRequestInput => ({ name: '', email: '', organisation: '', message: '', interest })

export interface DemoRequestDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The preselected area of interest, e.g. 'analytics' or a trade id. */
  interest?: string
  /** The dialog's heading; 'Request a demo' by default. */
  title?: string
}

/**
 * The 'Request a demo' form in a dialog. It checks the fields as the server
 * would, posts to /api/demo-requests and shows the verdict: a message under
 * each bad field, or a thank-you with a toast once the request is stored.
 * Each opening starts a fresh form.
 */
export function DemoRequestDialog({ open, onOpenChange, interest = '', title = 'Request a demo' }: DemoRequestDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && <DemoRequestContent interest={interest} title={title} />}
    </Dialog>
  )
}

/**
 * A button that opens the demo-request form, for every 'Request … Demo' or
 * 'Schedule …' action. Takes the Button's look props.
 */
export function DemoRequestButton({
  interest = '',
  title,
  children,
  ...buttonProps
}: Omit<ButtonProps, 'onClick' | 'asChild'> & { interest?: string; title?: string; children: ReactNode }) {
  const [open, setOpen] = useState(false)
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button {...buttonProps}>{children}</Button>
      </DialogTrigger>
      {open && <DemoRequestContent interest={interest} title={title ?? 'Request a demo'} />}
    </Dialog>
  )
}

function DemoRequestContent({ interest, title }: { interest: string; title: string }) {
  const [sent, setSent] = useState<DemoRequest | null>(null)
  const mutation = useCreateDemoRequest()
  const id = useId()
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(demoRequestFormSchema),
    defaultValues: emptyForm(interest),
    // Typing never raises a new complaint, it only clears the field's old one (register below); the next submit checks again.
    reValidateMode: 'onSubmit',
  })

  const interests = demoInterests.some((i) => i.value === interest)
    ? demoInterests
    : [...demoInterests, { value: interest, label: interest }]

  const send = (input: DemoRequestInput) => {
    mutation.mutate(input, {
      onSuccess: (created) => {
        setSent(created)
        toast({ title: 'Demo request sent', description: `We will contact you at ${created.email} to schedule your demo.` })
      },
      onError: (error) => {
        const found = submissionErrors(error)
        if (found.form) setError('root.server', { message: found.form })
        const first = demoRequestFields.find((f) => found.fields[f])
        for (const f of demoRequestFields) {
          const message = found.fields[f]
          if (message) setError(f, { type: 'server', message }, { shouldFocus: f === first })
        }
      },
    })
  }

  const fieldErrors = demoRequestFields.filter((f) => errors[f])

  const field = (name: DemoRequestField, label: string, control: (props: FieldProps) => ReactNode, hint?: string) => {
    const error = errors[name]?.message
    const controlId = `${id}-${name}`
    const describedBy = [hint && `${controlId}-hint`, error && `${controlId}-error`].filter(Boolean).join(' ') || undefined
    return (
      <div className="space-y-1.5">
        <Label htmlFor={controlId}>{label}</Label>
        {control({
          id: controlId,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': describedBy,
          // A field the visitor is fixing no longer shows its old complaint.
          ...register(name, { onChange: () => clearErrors(name) }),
        })}
        {hint && (
          <p id={`${controlId}-hint`} className="text-xs text-slate-400">
            {hint}
          </p>
        )}
        {error && (
          <p id={`${controlId}-error`} className="text-sm text-red-300" data-field-error={name}>
            {error}
          </p>
        )}
      </div>
    )
  }

  return (
    <DialogContent aria-describedby={`${id}-description`}>
      {sent ? (
        <div className="space-y-4 text-center" data-testid="demo-request-success">
          <CheckCircle2 className="mx-auto h-12 w-12 text-emerald-400" aria-hidden="true" />
          <DialogTitle>Request received</DialogTitle>
          <DialogDescription id={`${id}-description`}>
            Thanks, {sent.name}. We will contact you at {sent.email} within one business day to schedule your demo for{' '}
            {sent.organisation}.
          </DialogDescription>
          <DialogClose asChild>
            <Button>Close</Button>
          </DialogClose>
        </div>
      ) : (
        <>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription id={`${id}-description`}>
            Tell us about your team and we will set up a guided demo of Journeyman XR. Every field except the area of interest is
            required.
          </DialogDescription>
          <form noValidate onSubmit={handleSubmit(send)} className="mt-5 space-y-4">
            {field('name', 'Your name', (p) => (
              <Input {...p} autoComplete="name" />
            ))}
            {field('email', 'Work email', (p) => (
              <Input {...p} type="email" autoComplete="email" />
            ))}
            {field('organisation', 'Organisation', (p) => (
              <Input {...p} autoComplete="organization" />
            ))}
            {field('interest', 'Area of interest (optional)', (p) => (
              <select
                {...p}
                className="h-10 w-full rounded-md border border-white/20 bg-slate-900 px-3 text-sm text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
              >
                {interests.map((i) => (
                  <option key={i.value} value={i.value}>
                    {i.label}
                  </option>
                ))}
              </select>
            ))}
            {field(
              'message',
              'Message',
              (p) => <Textarea {...p} />,
              'What would you like to see? At least 10 characters.',
            )}
            {errors.root?.server && (
              <p role="alert" className="rounded-md border border-red-500/40 bg-red-500/10 px-3 py-2 text-sm text-red-200">
                {errors.root.server.message}
              </p>
            )}
            <div className={cn('flex justify-end gap-2 pt-2')}>
              <DialogClose asChild>
                <Button variant="ghost">Cancel</Button>
              </DialogClose>
              <Button type="submit" unavailable={mutation.isPending}>
                {mutation.isPending ? 'Sending…' : 'Send request'}
              </Button>
            </div>
            <p className="sr-only" role="status" aria-live="polite">
              {fieldErrors.length > 0 ? `${fieldErrors.length} fields need attention` : ''}
            </p>
          </form>
        </>
      )}
    </DialogContent>
  )
}

interface FieldProps extends UseFormRegisterReturn<DemoRequestField> {
  id: string
  'aria-invalid': true | undefined
  'aria-describedby': string | undefined
}
