import { useLayoutEffect, useRef } from 'react'
import { AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogTitle } from '@/components/ui/alert-dialog'
import { safetyAlertText, type SafetyAlert } from '@/components/safety-alerts/queue'
import type { SafetyAlertState } from '@/components/safety-alerts/use-safety-alerts'

export interface SafetyAlertDialogProps {
  /** The queue's state (useSafetyAlerts): the current alert, or none to close the dialog. */
  alerts: SafetyAlertState
}

function details(alert: SafetyAlert): string {
  const time = new Date(alert.at)
  const when = Number.isNaN(time.getTime()) ? '' : ` at ${time.toLocaleTimeString()}`
  const who = alert.from ? ` by ${alert.from}` : ''
  return `${alert.alertType.charAt(0).toUpperCase()}${alert.alertType.slice(1)} alert raised${who}${when}.`
}

/**
 * The spec's browser alert for an incoming safety alert (spec 001 §7), as an
 * accessible alert dialog: it reads exactly 'Safety Alert: ' plus the
 * description, takes focus, keeps the page inert until the person
 * acknowledges it (the button, Enter, Space or Escape), and does not fade.
 * Alerts that arrive meanwhile wait their turn.
 */
export function SafetyAlertDialog({ alerts }: SafetyAlertDialogProps) {
  const { current: alert, waiting } = alerts
  const open = alert !== null
  // Where focus goes back once the last alert is acknowledged: what the person
  // was on when the first one interrupted (Radix would look for a trigger, and
  // an alert that arrives by itself has none).
  const returnFocus = useRef<HTMLElement | null>(null)
  useLayoutEffect(() => {
    if (open) returnFocus.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null
  }, [open])
  return (
    <AlertDialog
      open={open}
      onOpenChange={(open) => {
        if (!open && alert) alerts.acknowledge(alert.key)
      }}
    >
      {alert ? (
        // A new key for each alert remounts the dialog: focus moves to its
        // button again and screen readers announce the next alert as new.
        <AlertDialogContent
          key={alert.key}
          data-testid="safety-alert-dialog"
          data-alert-type={alert.alertType}
          className="border-red-500/60"
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            const target = returnFocus.current
            if (target?.isConnected) target.focus({ preventScroll: true })
          }}
        >
          <AlertDialogTitle className="text-red-100">{safetyAlertText(alert.description)}</AlertDialogTitle>
          <AlertDialogDescription>{details(alert)}</AlertDialogDescription>
          {waiting > 0 ? (
            <p className="mt-2 text-sm font-semibold text-amber-300" data-testid="safety-alerts-waiting">
              {waiting === 1 ? '1 more safety alert is waiting.' : `${waiting} more safety alerts are waiting.`}
            </p>
          ) : null}
          <div className="mt-6 flex justify-end">
            <AlertDialogCancel>Acknowledge</AlertDialogCancel>
          </div>
        </AlertDialogContent>
      ) : null}
    </AlertDialog>
  )
}
