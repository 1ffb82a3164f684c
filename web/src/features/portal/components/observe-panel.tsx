import { useEffect, useId, useRef, useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { OctagonX, Send, X } from 'lucide-react'
import { MAX_LIVE_TEXT, useSendLiveMessage, useStopLiveSession, type PortalLiveSession } from '@/api/portal'
import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from '@/components/ui/dialog'
import { FormAlert, FormField } from '@/components/ui/form-field'
import { Textarea } from '@/components/ui/input'
import { LiveSessionObserver } from '@/features/live-demo'
import { formErrors } from '@/lib/form-errors'
import { cn } from '@/lib/utils'
import { liveMessageFormSchema, liveTextLength, stepLabel, stopFormSchema } from '../lib/live'
import { modeLabel } from '../lib/session'

/**
 * One session observed: its room on /ws as an observer (the live demo's
 * observer), a message to the learner, and a stop. running is false once
 * the session has ended; the panel then says how it ended and offers
 * nothing to send.
 */
export function ObservePanel({ session: s, running, onClose }: { session: PortalLiveSession; running: boolean; onClose: () => void }) {
  const headingId = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const name = s.learnerName || 'the learner'

  // Observe moves the keyboard here, whichever session it came from.
  useEffect(() => {
    heading.current?.focus()
  }, [s.sessionId])

  return (
    <section aria-labelledby={headingId} className="space-y-5 rounded-xl border border-amber-500/40 bg-slate-900/70 p-4 sm:p-5" data-testid="observe-panel">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} ref={heading} tabIndex={-1} className="scroll-mt-20 break-words text-xl font-semibold text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400">
            Observing {s.learnerName || 'a learner'}
          </h2>
          <p className="mt-1 text-sm text-slate-300">
            {s.moduleTitle || s.moduleId} · {modeLabel(s.sessionType)}
          </p>
        </div>
        <Button variant="outline" size="sm" onClick={onClose}>
          <X aria-hidden="true" />
          Stop observing
        </Button>
      </div>

      {running ? (
        <p className="text-sm text-white" aria-live="polite" data-testid="observed-step">
          {stepLabel(s)}
        </p>
      ) : (
        <p role="status" className="rounded-md border border-white/15 bg-white/5 px-3 py-2 text-sm text-slate-100" data-testid="observed-ended">
          This session has ended{s.outcome === 'passed' ? ': passed' : s.outcome === 'failed' ? ': failed' : ''}. Nothing more can be sent to it.
        </p>
      )}

      {running ? (
        <>
          <LiveSessionObserver session={{ id: s.sessionId, moduleId: s.moduleId, moduleTitle: s.moduleTitle, sessionType: s.sessionType }} headingLevel={3} />
          <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_auto]">
            <MessageForm sessionId={s.sessionId} name={name} />
            <StopSession sessionId={s.sessionId} name={name} />
          </div>
        </>
      ) : null}
    </section>
  )
}

function MessageForm({ sessionId, name }: { sessionId: string; name: string }) {
  const send = useSendLiveMessage(sessionId)
  const [sent, setSent] = useState('')
  const {
    register,
    handleSubmit,
    reset,
    control,
    formState: { errors },
  } = useForm({ resolver: zodResolver(liveMessageFormSchema), defaultValues: { text: '' } })
  const length = liveTextLength(useWatch({ control, name: 'text' }) ?? '')
  const server = send.error ? formErrors(send.error, { text: 'The message' }) : null

  const onSubmit = handleSubmit(async ({ text }) => {
    setSent('')
    try {
      await send.mutateAsync(text)
      reset()
      setSent(`Message sent to ${name}.`)
    } catch {
      // Shown from send.error.
    }
  })

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-3" aria-label={`Send ${name} a message`}>
      <h3 className="text-base font-semibold text-white">Send a message</h3>
      <FormField
        name="text"
        label={`Message to ${name}`}
        hint={
          <>
            Shown on the learner's screen until they dismiss it.{' '}
            <span className={cn(length > MAX_LIVE_TEXT && 'font-semibold text-amber-300')}>
              {length} of {MAX_LIVE_TEXT} characters.
            </span>
          </>
        }
        error={errors.text?.message ?? server?.fields.text}
      >
        {(p) => <Textarea {...p} {...register('text', { onChange: () => setSent('') })} rows={3} />}
      </FormField>
      <FormAlert error={server?.form} fieldErrors={[errors.text?.message]} success={sent} />
      {/* Unavailable, not disabled, while it waits: a disabled button drops focus to the page. */}
      <Button type="submit" unavailable={send.isPending}>
        <Send aria-hidden="true" />
        {send.isPending ? 'Sending…' : 'Send message'}
      </Button>
    </form>
  )
}

function StopSession({ sessionId, name }: { sessionId: string; name: string }) {
  const stop = useStopLiveSession(sessionId)
  const [open, setOpen] = useState(false)
  const [stopped, setStopped] = useState(false)

  return (
    <div className="space-y-3 lg:max-w-[16rem]">
      <h3 className="text-base font-semibold text-white">Stop the session</h3>
      <p className="text-sm text-slate-300">Ends it on the learner's screen as End Session does; it is judged on what they have done so far.</p>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          if (stop.isPending) return
          if (next) stop.reset()
          setOpen(next)
        }}
      >
        <DialogTrigger asChild>
          <Button variant="destructive">
            <OctagonX aria-hidden="true" />
            Stop session
          </Button>
        </DialogTrigger>
        {open ? (
          <StopDialogContent
            name={name}
            pending={stop.isPending}
            error={stop.error ? formErrors(stop.error, { reason: 'The reason' }) : null}
            onStop={async (reason) => {
              try {
                await stop.mutateAsync(reason)
                setStopped(true)
                setOpen(false)
              } catch {
                // Shown in the dialog from stop.error.
              }
            }}
          />
        ) : null}
      </Dialog>
      <div role="status" className={cn(stopped && 'rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm text-amber-100')}>
        {stopped ? `Stop sent: ${name}'s session ends as soon as their player receives it.` : ''}
      </div>
    </div>
  )
}

function StopDialogContent({
  name,
  pending,
  error,
  onStop,
}: {
  name: string
  pending: boolean
  error: { fields: { reason?: string }; form?: string } | null
  onStop: (reason: string) => Promise<void>
}) {
  const descriptionId = useId()
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(stopFormSchema), defaultValues: { reason: '' } })
  const onSubmit = handleSubmit(({ reason }) => onStop(reason))

  return (
    <DialogContent aria-describedby={descriptionId}>
      <DialogTitle>Stop {name}'s session?</DialogTitle>
      <DialogDescription id={descriptionId}>
        Their player ends the session now, as if they had chosen End Session, and shows them that you stopped it and why. The session is judged on the steps done so far.
      </DialogDescription>
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="mt-5 space-y-4">
        <FormField name="reason" label="Reason (optional)" hint={`Shown to the learner. At most ${MAX_LIVE_TEXT} characters.`} error={errors.reason?.message ?? error?.fields.reason}>
          {(p) => <Textarea {...p} {...register('reason')} rows={3} />}
        </FormField>
        <FormAlert error={error?.form} fieldErrors={[errors.reason?.message]} />
        <div className="flex flex-wrap justify-end gap-2 pt-1">
          <DialogClose asChild>
            <Button variant="ghost" disabled={pending}>
              Cancel
            </Button>
          </DialogClose>
          <Button type="submit" variant="destructive" disabled={pending}>
            {pending ? 'Stopping…' : 'Stop session'}
          </Button>
        </div>
      </form>
    </DialogContent>
  )
}
