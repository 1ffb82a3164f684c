import { Clock, Radio } from 'lucide-react'
import { Card } from '@/components/ui/card'
import { Progress } from '@/components/ui/progress'
import { cn } from '@/lib/utils'
import type { Equipment } from '@/api/twin'
import { cardReadings, formatNumber, formatReading, OPERATING_HOURS_SCALE, operatingHoursPercent } from '../lib/equipment'
import { AlertBadge, StatusBadge, SyncBadge } from './state-badges'
import { Heading } from '@/components/heading'

/**
 * One twin in the grid: the first 4 readings and the operating-hours bar
 * (seed 001 §2). The name is the card's one button; its click area covers
 * the card so a pointer can pick anywhere while keyboard and screen-reader
 * users meet a single named control.
 */
export function EquipmentCard({
  equipment,
  selected,
  onSelect,
  detailId,
}: {
  equipment: Equipment
  selected: boolean
  onSelect: (id: string) => void
  detailId: string
}) {
  const readings = cardReadings(equipment.sensorData)
  const hours = equipment.operatingHours ?? 0
  return (
    <Card
      data-testid="equipment-card"
      data-equipment-id={equipment.id}
      className={cn(
        'relative flex flex-col gap-4 p-5 transition-colors focus-within:ring-2 focus-within:ring-amber-400 hover:border-amber-400/60',
        selected && 'border-amber-400 bg-slate-900',
      )}
    >
      <div>
        <Heading depth={1} className="text-lg font-semibold leading-tight text-white">
          <button
            type="button"
            aria-expanded={selected}
            aria-controls={selected ? detailId : undefined}
            onClick={() => onSelect(equipment.id)}
            className="text-left after:absolute after:inset-0 after:rounded-xl after:content-[''] focus-visible:outline-none"
          >
            {equipment.name}
          </button>
        </Heading>
        <p className="mt-1 text-sm text-slate-300">
          {[equipment.manufacturer, equipment.model].filter(Boolean).join(' ')}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <StatusBadge status={equipment.status} />
        <AlertBadge level={equipment.alertLevel} />
      </div>
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-300">
        <Radio className="h-3.5 w-3.5" aria-hidden="true" />
        <span>{equipment.communicationProtocol ?? '—'}</span>
        <SyncBadge status={equipment.syncStatus} />
      </div>
      {readings.length > 0 ? (
        <dl className="grid grid-cols-2 gap-2" aria-label="Sensor readings">
          {readings.map((r) => (
            <div key={r.key} className="rounded-md bg-slate-800/70 px-3 py-2">
              <dt className="truncate text-xs text-slate-300">{r.label}</dt>
              <dd className="font-mono text-sm font-semibold text-white" data-sensor={r.key}>
                {formatReading(r.value, r.unit)}
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="text-sm text-slate-300">No sensor readings yet.</p>
      )}
      <div className="mt-auto">
        <div className="mb-1 flex items-center justify-between text-xs text-slate-300">
          <span className="inline-flex items-center gap-1">
            <Clock className="h-3.5 w-3.5" aria-hidden="true" /> Operating hours
          </span>
          <span>
            {formatNumber(hours, 0)} / {formatNumber(OPERATING_HOURS_SCALE, 0)} h
          </span>
        </div>
        <Progress value={operatingHoursPercent(hours)} aria-label={`${equipment.name} operating hours`} />
      </div>
    </Card>
  )
}
