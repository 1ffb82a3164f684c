import { useEffect, useRef, useState } from 'react'
import { AlertTriangle, BellRing, CheckCircle2, Eye, LifeBuoy, OctagonX, Wrench } from 'lucide-react'
import { useAcknowledgeSafetyAlert, type SafetyAlert } from '@/api/realtime'
import { Button } from '@/components/ui/button'
import { ApiError } from '@/lib/api'
import { formErrors } from '@/lib/form-errors'
import { cn } from '@/lib/utils'
import { alertTypeLabel, formatWhen } from '../lib/live'

const typeIcons: Record<string, typeof OctagonX> = { emergency: OctagonX, help: LifeBuoy, equipment: Wrench, general: AlertTriangle }

/** Why an acknowledgement failed: a 409 is the server's word on who acknowledged it first. */
function ackErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 409) return error.serverMessage
  if (error instanceof ApiError && error.status === 404) return 'This alert is not one of your organisation’s.'
  return `Could not acknowledge this alert. ${formErrors(error, {}).form ?? ''}`.trim()
}

/**
 * The organisation's safety alerts, newest first. One not yet acknowledged
 * stands out by its border and by saying so in words; acknowledging it
 * stores who and when, which every instructor's list then shows.
 */
export function LiveAlertList({
  alerts,
  runningIds,
  nowMs,
  onObserve,
}: {
  alerts: SafetyAlert[]
  /** Sessions running now, whose alerts offer to observe them. */
  runningIds: ReadonlySet<string>
  nowMs: number
  onObserve: (sessionId: string, button: HTMLButtonElement) => void
}) {
  const ack = useAcknowledgeSafetyAlert()
  return (
    <ol aria-label="Safety alerts, newest first" className="space-y-3">
      {alerts.map((a) => (
        <AlertItem
          key={a.id}
          alert={a}
          running={a.sessionId !== '' && runningIds.has(a.sessionId)}
          nowMs={nowMs}
          pending={ack.isPending && ack.variables === a.id}
          error={ack.isError && ack.variables === a.id ? ackErrorMessage(ack.error) : undefined}
          onAcknowledge={() => ack.mutate(a.id)}
          onObserve={onObserve}
        />
      ))}
    </ol>
  )
}

function AlertItem({
  alert: a,
  running,
  nowMs,
  pending,
  error,
  onAcknowledge,
  onObserve,
}: {
  alert: SafetyAlert
  running: boolean
  nowMs: number
  pending: boolean
  error: string | undefined
  onAcknowledge: () => void
  onObserve: (sessionId: string, button: HTMLButtonElement) => void
}) {
  const Icon = typeIcons[a.alertType] ?? BellRing
  const acked = a.acknowledgement
  const who = a.displayName || 'Someone'
  // The Acknowledge button goes once the acknowledgement is stored: the keyboard moves to the line that replaces it.
  const [acking, setAcking] = useState(false)
  const ackLine = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    if (acking && acked) ackLine.current?.focus()
  }, [acking, acked])

  return (
    <li
      data-alert-id={a.id}
      data-acknowledged={acked ? 'true' : 'false'}
      className={cn('rounded-lg border p-3 text-sm', acked ? 'border-white/10 bg-slate-900/50' : 'border-l-4 border-red-500 bg-red-500/10')}
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className={cn('inline-flex items-center gap-1 font-semibold', acked ? 'text-slate-100' : 'text-red-100')}>
          <Icon className="h-4 w-4" aria-hidden="true" />
          {alertTypeLabel(a.alertType)}
        </span>
        {acked ? null : <span className="rounded bg-red-600 px-1.5 py-0.5 text-xs font-semibold uppercase tracking-wide text-white">Not acknowledged</span>}
        <time dateTime={a.createdAt} className="ml-auto text-xs text-slate-300">
          {formatWhen(a.createdAt, nowMs)}
        </time>
      </div>
      <p className="mt-1 text-slate-200">
        Raised by <span className="font-semibold text-white">{who}</span>
      </p>
      <p className="mt-1 break-words text-white">{a.description}</p>
      {a.sessionId ? (
        running ? (
          <Button size="sm" variant="outline" className="mt-2 h-auto min-h-9 whitespace-normal py-1.5 text-left" onClick={(e) => onObserve(a.sessionId, e.currentTarget)}>
            <Eye aria-hidden="true" />
            Observe {who}'s session
          </Button>
        ) : (
          <p className="mt-1 text-xs text-slate-300">Raised during a session that is not running now.</p>
        )
      ) : null}
      {acked ? (
        <p ref={ackLine} tabIndex={-1} className="mt-2 flex items-center gap-1.5 text-emerald-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400" data-testid="alert-acknowledgement">
          <CheckCircle2 className="h-4 w-4 shrink-0" aria-hidden="true" />
          <span>
            Acknowledged by {acked.displayName || 'an instructor'} at <time dateTime={acked.at}>{formatWhen(acked.at, nowMs)}</time>
          </span>
        </p>
      ) : (
        <Button
          size="sm"
          className="mt-2"
          aria-label={`Acknowledge the alert from ${who}`}
          disabled={pending}
          onClick={() => {
            setAcking(true)
            onAcknowledge()
          }}
        >
          {pending ? 'Acknowledging…' : 'Acknowledge'}
        </Button>
      )}
      {error ? (
        <p role="alert" className="mt-2 text-red-200">
          {error}
        </p>
      ) : null}
    </li>
  )
}
