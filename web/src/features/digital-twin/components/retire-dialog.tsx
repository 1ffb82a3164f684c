import { useRef } from 'react'
import { useRetireEquipment, type Equipment } from '@/api/twin'
import { AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogTitle } from '@/components/ui/alert-dialog'
import { Button } from '@/components/ui/button'
import { formErrors } from '@/lib/form-errors'
import { useRecheckIdentityOnRefusal } from '../hooks/use-drive-access'

/**
 * Asks before a twin is retired. Open while equipment is set; stays open
 * while the request runs and when it fails, showing why. Kept, focus goes
 * back to the button that asked; retired, that button is gone with its
 * twin, so focusAfterRetire says where focus goes instead.
 */
export function RetireDialog({
  equipment,
  onClose,
  onRetired,
  focusAfterRetire,
}: {
  equipment: Equipment | null
  onClose: () => void
  onRetired: (retired: Equipment) => void
  focusAfterRetire: () => void
}) {
  const retire = useRetireEquipment()
  const recheckIdentity = useRecheckIdentityOnRefusal()
  const justRetired = useRef(false)
  const close = () => {
    if (retire.isPending) return
    retire.reset()
    onClose()
  }
  const confirm = () => {
    if (!equipment) return
    retire.mutate(equipment.id, {
      onSuccess: () => {
        justRetired.current = true
        retire.reset()
        onRetired(equipment)
      },
      onError: recheckIdentity,
    })
  }

  return (
    <AlertDialog open={equipment !== null} onOpenChange={(open) => !open && close()}>
      {equipment && (
        <AlertDialogContent
          onCloseAutoFocus={(event) => {
            if (!justRetired.current) return
            justRetired.current = false
            event.preventDefault()
            focusAfterRetire()
          }}
        >
          <AlertDialogTitle>Retire {equipment.name}?</AlertDialogTitle>
          <AlertDialogDescription>It leaves the equipment lists and the monitor, and its device is no longer read. Its readings and history are kept.</AlertDialogDescription>
          <div role="alert" className={retire.isError ? 'mt-4 rounded-md border border-red-500/40 bg-red-500/10 px-3 py-2 text-sm text-red-200' : undefined}>
            {retire.isError && `Could not retire it. ${formErrors(retire.error, {}).form ?? ''}`}
          </div>
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            <AlertDialogCancel disabled={retire.isPending}>Keep it</AlertDialogCancel>
            <Button variant="destructive" onClick={confirm} disabled={retire.isPending}>
              {retire.isPending ? 'Retiring…' : 'Retire'}
            </Button>
          </div>
        </AlertDialogContent>
      )}
    </AlertDialog>
  )
}
