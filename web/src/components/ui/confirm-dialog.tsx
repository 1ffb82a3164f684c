import type { ReactNode } from 'react'
import { AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogTitle } from '@/components/ui/alert-dialog'
import { Button } from '@/components/ui/button'

/**
 * Asks before an action that cannot be taken back. Cancel has focus when it
 * opens, so Enter alone never confirms. It stays open while the action runs
 * (its buttons unavailable, a close ignored) and when it fails, showing
 * error; the caller closes it on success (open false). Closed, focus goes
 * back to the button that opened it, unless onCloseAutoFocus puts it
 * elsewhere (that button went with what it acted on).
 */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  pendingLabel,
  cancelLabel = 'Cancel',
  pending,
  error,
  onConfirm,
  onCancel,
  onCloseAutoFocus,
}: {
  open: boolean
  title: string
  description: ReactNode
  confirmLabel: string
  pendingLabel: string
  cancelLabel?: string
  pending: boolean
  error?: string
  onConfirm: () => void
  onCancel: () => void
  onCloseAutoFocus?: (event: Event) => void
}) {
  return (
    <AlertDialog open={open} onOpenChange={(next) => !next && !pending && onCancel()}>
      {open && (
        <AlertDialogContent onCloseAutoFocus={onCloseAutoFocus}>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
          <div role="alert" className={error ? 'mt-4 rounded-md border border-red-500/40 bg-red-500/10 px-3 py-2 text-sm text-red-200' : undefined}>
            {error}
          </div>
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            {/* Unavailable, not disabled, while it runs: a disabled button drops focus out of the dialog. */}
            <AlertDialogCancel aria-disabled={pending || undefined}>{cancelLabel}</AlertDialogCancel>
            <Button variant="destructive" onClick={onConfirm} unavailable={pending}>
              {pending ? pendingLabel : confirmLabel}
            </Button>
          </div>
        </AlertDialogContent>
      )}
    </AlertDialog>
  )
}
