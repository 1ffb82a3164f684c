import { useEffect, useRef, useState } from 'react'
import { Link, useLocation, useSearch } from 'wouter'
import { ArrowLeft } from 'lucide-react'
import { useEquipment, type Equipment } from '@/api/twin'
import { Button } from '@/components/ui/button'
import { PageShell } from '@/components/page-shell'
import { toast } from '@/hooks/use-toast'
import { useRequireAccount } from '@/hooks/use-require-account'
import { EquipmentForm } from './components/equipment-form'
import { EquipmentList, MANAGE_PATH } from './components/equipment-list'
import { RetireDialog } from './components/retire-dialog'
import { driveAccess, managesTwin, type TwinCaller } from './lib/access'
import { errorMessage } from './lib/equipment'
import { equipmentValues, newEquipmentValues } from './lib/equipment-form'

const TITLE = 'Manage Equipment'
const linkClass = 'inline-flex items-center gap-1 rounded-sm font-semibold text-amber-400 underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400'

/**
 * /digital-twin/manage (instructors and admins of an organisation): the
 * twins as data. The list, and in the address which twin is open:
 * ?new adds one, ?edit={id} edits one, so a reload keeps the place.
 */
export default function ManageEquipmentPage() {
  const me = useRequireAccount()
  const access = driveAccess(me.data, me.isError)

  if (access.state === 'allowed') return <ManageEquipment me={me.data} />
  return (
    <PageShell title={TITLE}>
      {access.state === 'checking' ? (
        <p role="status" className="mt-6 text-slate-300">
          Loading…
        </p>
      ) : (
        <p className="mt-6 max-w-2xl text-slate-200">
          Only instructors and admins of an organisation manage equipment.{access.why ? ` ${access.why}` : ''}{' '}
          <Link href="/digital-twin" className={linkClass}>
            Back to the digital twins
          </Link>
        </p>
      )}
    </PageShell>
  )
}

type View = { kind: 'list' } | { kind: 'new' } | { kind: 'edit'; id: string }

function useView(): View {
  const params = new URLSearchParams(useSearch())
  const id = params.get('edit')
  if (id) return { kind: 'edit', id }
  return params.has('new') ? { kind: 'new' } : { kind: 'list' }
}

/** Who may change a twin it cannot, in a line. */
function notYours(e: Equipment): string {
  return e.organisationId
    ? `${e.name} belongs to another organisation: only its instructors and admins change it.`
    : `${e.name} is shared demo equipment every organisation trains on: no one changes or retires it. Add your own equipment to connect a real device.`
}

/** me is undefined only when /api/me failed: the server then decides, and says so on save. */
function ManageEquipment({ me }: { me: TwinCaller | undefined }) {
  // Read afresh: the monitor's live updates leave a real device's details as they were (anyone may watch them, lib/live.ts), and a form must start from those stored.
  const equipment = useEquipment({ refetchOnMount: 'always' })
  // Staff manage their organisation's twins; the shared fleet and other organisations' are on the monitor.
  const own = equipment.data?.filter((e) => !me || managesTwin(me, e))
  const shared = equipment.data?.filter((e) => !e.organisationId).length ?? 0
  const view = useView()
  const [, navigate] = useLocation()
  const [retiring, setRetiring] = useState<Equipment | null>(null)
  const headingRef = useRef<HTMLHeadingElement>(null)
  const firstView = useRef(true)
  const viewKey = view.kind === 'edit' ? `edit:${view.id}` : view.kind

  // Moving between the list and a form moves focus to the new view's heading, as a new page would.
  useEffect(() => {
    if (firstView.current) {
      firstView.current = false
      return
    }
    headingRef.current?.focus()
  }, [viewKey])

  const backToList = () => navigate(MANAGE_PATH)
  const saved = (e: Equipment) => {
    toast({ title: 'Equipment saved', description: `${e.name} is saved.` })
    backToList()
  }
  const retired = (e: Equipment) => {
    setRetiring(null)
    toast({ title: 'Equipment retired', description: `${e.name} is retired; its history is kept.` })
    if (view.kind !== 'list') backToList()
  }

  const editing = view.kind === 'edit' ? equipment.data?.find((e) => e.id === view.id) : undefined
  const editable = editing && (!me || managesTwin(me, editing))
  const heading =
    view.kind === 'new' ? 'Add equipment' : view.kind === 'edit' ? (editable ? `Edit ${editing.name}` : 'Edit equipment') : `Your equipment${own ? ` (${own.length})` : ''}`

  return (
    <PageShell title={TITLE}>
      <p className="mt-3 max-w-3xl text-slate-300">Add, edit and retire the twins of your shop floor, and connect each to its real device or to the built-in demo device.</p>
      <nav aria-label="Back" className="mt-4 text-sm">
        {view.kind === 'list' ? (
          <Link href="/digital-twin" className={linkClass}>
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
            Digital twin monitor
          </Link>
        ) : (
          <Link href={MANAGE_PATH} className={linkClass}>
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
            All equipment
          </Link>
        )}
      </nav>
      <h2 ref={headingRef} tabIndex={-1} id="manage-view-heading" className="mb-4 mt-8 break-words text-2xl font-semibold text-white focus-visible:outline-none">
        {heading}
      </h2>
      {view.kind === 'new' ? (
        <EquipmentForm key="new" equipment={null} defaultValues={newEquipmentValues()} onSaved={saved} />
      ) : equipment.isPending ? (
        <p role="status" className="text-slate-300">
          Loading equipment…
        </p>
      ) : equipment.isError ? (
        <div role="alert" className="space-y-3 rounded-lg border border-red-500/50 bg-red-500/10 p-4 text-red-200">
          <p>Could not load equipment: {errorMessage(equipment.error)}</p>
          <Button variant="outline" onClick={() => void equipment.refetch()}>
            Retry
          </Button>
        </div>
      ) : view.kind === 'edit' ? (
        editing && editable ? (
          <EquipmentForm key={editing.id} equipment={editing} defaultValues={equipmentValues(editing)} onSaved={saved} />
        ) : editing ? (
          <p className="text-slate-200">
            {notYours(editing)}{' '}
            <Link href={MANAGE_PATH} className={linkClass}>
              See your equipment
            </Link>
          </p>
        ) : (
          <p className="text-slate-200">
            There is no equipment “{view.id}”; it may have been retired.{' '}
            <Link href={MANAGE_PATH} className={linkClass}>
              See all equipment
            </Link>
          </p>
        )
      ) : (
        <>
          <EquipmentList equipment={own ?? []} onRetire={setRetiring} />
          {shared > 0 && (
            <p className="mt-6 max-w-3xl text-sm text-slate-300">
              The {shared} shared demo twins, which every organisation trains on, are on the{' '}
              <Link href="/digital-twin" className={linkClass}>
                Digital twin monitor
              </Link>
              : the instructors and admins of every organisation drive them there, and no one changes or retires them.
            </p>
          )}
        </>
      )}
      <RetireDialog equipment={retiring} onClose={() => setRetiring(null)} onRetired={retired} focusAfterRetire={() => headingRef.current?.focus()} />
    </PageShell>
  )
}
