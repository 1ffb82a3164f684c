import { Link } from 'wouter'
import { Pencil, Plus, Trash2 } from 'lucide-react'
import type { Equipment } from '@/api/twin'
import { Button, buttonVariants } from '@/components/ui/button'
import { isProtocol, protocolLabels } from '../lib/connection'
import { SyncBadge } from './state-badges'

export const MANAGE_PATH = '/digital-twin/manage'

/** Where a twin's readings come from, in words. */
export function deviceLabel(e: Equipment): string {
  return e.connection ? `Real device at ${e.connection.address}` : 'Demo device'
}

/** The twins an instructor manages, each with Edit and Retire. */
export function EquipmentList({ equipment, onRetire }: { equipment: Equipment[]; onRetire: (e: Equipment) => void }) {
  return (
    <div className="space-y-4">
      <Link href={`${MANAGE_PATH}?new`} className={buttonVariants()}>
        <Plus aria-hidden="true" />
        Add equipment
      </Link>
      {equipment.length === 0 ? (
        <p className="text-slate-300">Your organisation has no equipment yet. Add a twin to start monitoring it.</p>
      ) : (
        <ul aria-label="Equipment" className="space-y-3">
          {equipment.map((e) => (
            <li key={e.id} className="flex flex-col gap-3 rounded-xl border border-white/10 bg-slate-900/70 p-4 md:flex-row md:items-center md:gap-6" data-equipment-id={e.id}>
              <div className="min-w-0 flex-1">
                <h3 className="break-words font-semibold text-white">{e.name}</h3>
                <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-300">
                  <div className="flex gap-1">
                    <dt className="sr-only">Protocol</dt>
                    <dd>{isProtocol(e.communicationProtocol) ? protocolLabels[e.communicationProtocol] : (e.communicationProtocol ?? 'Unknown protocol')}</dd>
                  </div>
                  <div className="flex min-w-0 gap-1">
                    <dt className="sr-only">Served by</dt>
                    <dd className="break-all">{deviceLabel(e)}</dd>
                  </div>
                </dl>
                <div className="mt-2">
                  <SyncBadge status={e.syncStatus} />
                </div>
              </div>
              <div className="flex shrink-0 flex-wrap gap-2">
                <Link href={`${MANAGE_PATH}?edit=${encodeURIComponent(e.id)}`} aria-label={`Edit ${e.name}`} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
                  <Pencil aria-hidden="true" />
                  Edit
                </Link>
                <Button variant="ghost" size="sm" aria-label={`Retire ${e.name}`} onClick={() => onRetire(e)}>
                  <Trash2 aria-hidden="true" />
                  Retire
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
