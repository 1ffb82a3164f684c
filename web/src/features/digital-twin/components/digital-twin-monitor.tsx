import { useEffect, useRef, useState } from 'react'
import { Link } from 'wouter'
import { Settings2 } from 'lucide-react'
import { Button, buttonVariants } from '@/components/ui/button'
import { useDataStreams, useEquipment } from '@/api/twin'
import { useDriveAccess } from '../hooks/use-drive-access'
import { useEquipmentLive } from '../hooks/use-equipment-live'
import { EQUIPMENT_POLL_MS, STREAMS_POLL_MS, errorMessage } from '../lib/equipment'
import { AlertsList } from './alerts-list'
import { EquipmentCard } from './equipment-card'
import { EquipmentDetail } from './equipment-detail'
import { Heading, focusedHeadingClass } from '@/components/heading'
import { cn } from '@/lib/utils'

const DETAIL_ID = 'digital-twin-detail'

/**
 * The digital twin monitor (seed 001 §2): the equipment grid, the alerts and
 * the detail panel of the selected twin. It carries no page heading, and its
 * headings follow HeadingLevelContext, so /advanced can embed it under its own.
 */
export function DigitalTwinMonitor() {
  const equipment = useEquipment({ refetchInterval: EQUIPMENT_POLL_MS })
  const live = useEquipmentLive()
  // Instructors and admins manage the twins themselves; others only watch and drive.
  const staff = useDriveAccess().state === 'allowed'
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const selected = equipment.data?.find((e) => e.id === selectedId) ?? null
  // A twin retired elsewhere leaves the list while its panel is open.
  const retired = selectedId !== null && equipment.data !== undefined && selected === null
  // Streams are fetched, and polled every 2 s, only while a twin is selected.
  const streams = useDataStreams(retired ? null : selectedId, { refetchInterval: STREAMS_POLL_MS })
  const headingRef = useRef<HTMLHeadingElement>(null)
  const listHeadingRef = useRef<HTMLHeadingElement>(null)
  const returnFocusTo = useRef<string | null>(null)

  // Its panel is gone (selected is null): focus the panel held lands on the list rather than the page's body.
  useEffect(() => {
    if (retired && document.activeElement === document.body) listHeadingRef.current?.focus()
  }, [retired])

  // Opening a panel moves focus to its heading so keyboard users land in it.
  useEffect(() => {
    if (selectedId) headingRef.current?.focus()
  }, [selectedId])

  const toggle = (id: string) => setSelectedId((cur) => (cur === id ? null : id))
  const close = () => {
    returnFocusTo.current = selectedId
    setSelectedId(null)
  }
  // Closing returns focus to the card that opened the panel.
  useEffect(() => {
    if (selectedId !== null || !returnFocusTo.current) return
    const id = returnFocusTo.current
    returnFocusTo.current = null
    document.querySelector<HTMLButtonElement>(`[data-equipment-id="${CSS.escape(id)}"] button[aria-expanded]`)?.focus()
  }, [selectedId])

  return (
    <div className="space-y-8">
      {selected && <EquipmentDetail ref={headingRef} id={DETAIL_ID} equipment={selected} streams={streams} onClose={close} />}
      <div className="grid gap-8 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <section aria-labelledby="twin-equipment-heading" className="min-w-0">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <Heading id="twin-equipment-heading" ref={listHeadingRef} tabIndex={-1} className={cn('text-xl font-semibold text-white', focusedHeadingClass)}>
              Equipment{equipment.data ? ` (${equipment.data.length})` : ''}
            </Heading>
            {staff && (
              <Link href="/digital-twin/manage" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
                <Settings2 aria-hidden="true" />
                Manage equipment
              </Link>
            )}
          </div>
          <p className="mb-4 mt-1 text-sm text-slate-400" data-testid="twin-live">
            {live === 'connected' ? 'Live: readings show as they are stored.' : 'Refreshing every 5 seconds; live readings resume when the connection is back.'}
          </p>
          {equipment.isPending ? (
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
          ) : equipment.data.length === 0 ? (
            <p className="text-slate-300">No equipment is being monitored.</p>
          ) : (
            <div className="grid gap-4 sm:grid-cols-2 2xl:grid-cols-3">
              {equipment.data.map((e) => (
                <EquipmentCard key={e.id} equipment={e} selected={e.id === selectedId} onSelect={toggle} detailId={DETAIL_ID} />
              ))}
            </div>
          )}
        </section>
        <AlertsList />
      </div>
    </div>
  )
}
