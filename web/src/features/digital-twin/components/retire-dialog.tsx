import { useRef } from 'react'
import { useRetireEquipment, type Equipment } from '@/api/twin'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
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
    <ConfirmDialog
      open={equipment !== null}
      title={`Retire ${equipment?.name ?? ''}?`}
      description="It leaves the equipment lists and the monitor, and its device is no longer read. Its readings and history are kept."
      confirmLabel="Retire"
      pendingLabel="Retiring…"
      cancelLabel="Keep it"
      pending={retire.isPending}
      error={retire.isError ? `Could not retire it. ${formErrors(retire.error, {}).form ?? ''}` : undefined}
      onConfirm={confirm}
      onCancel={close}
      onCloseAutoFocus={(event) => {
        if (!justRetired.current) return
        justRetired.current = false
        event.preventDefault()
        focusAfterRetire()
      }}
    />
  )
}
