import { forwardRef, useId, type ReactNode } from 'react'
import { Link } from 'wouter'
import { ArrowDownRight, ArrowUpRight, Gauge, Minus, RefreshCw, X } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Progress } from '@/components/ui/progress'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { toast } from '@/hooks/use-toast'
import { cn } from '@/lib/utils'
import { useUpdateSensors, type DataStream, type Equipment } from '@/api/twin'
import type { UseQueryResult } from '@tanstack/react-query'
import {
  daysUntil,
  errorMessage,
  formatDate,
  formatNumber,
  formatReading,
  formatTime,
  OPERATING_HOURS_SCALE,
  operatingHoursPercent,
  sensorReadings,
} from '../lib/equipment'
import { simulateSensorData } from '../lib/simulate'
import { useDriveAccess, useManagesTwin, useRecheckIdentityOnRefusal } from '../hooks/use-drive-access'
import { useTradeName } from '../hooks/use-trade-name'
import { DriveNotice } from './drive-notice'
import { Heading } from '@/components/heading'
import { ProtocolTester } from './protocol-tester'
import { StreamSparkline } from './stream-sparkline'
import { AlertBadge, StatusBadge, SyncBadge } from './state-badges'

/** The panel that opens for the selected twin: Overview, Sensors, Protocols, Maintenance (seed 001 §2). */
export const EquipmentDetail = forwardRef<
  HTMLHeadingElement,
  { equipment: Equipment; streams: UseQueryResult<DataStream[]>; id: string; onClose: () => void }
>(function EquipmentDetail(
  { equipment, streams, id, onClose },
  headingRef,
) {
  const update = useUpdateSensors()
  const access = useDriveAccess(equipment)
  const recheckIdentity = useRecheckIdentityOnRefusal()
  const noticeId = useId()
  const headingId = `${id}-heading`

  const onUpdateSensors = () => {
    if (access.state !== 'allowed') return
    const sensorData = simulateSensorData(equipment.type ?? '', Math.random, new Date(), equipment.name)
    update.mutate(
      { id: equipment.id, sensorData },
      {
        onSuccess: () => toast({ title: 'Sensors updated', description: `${equipment.name} received new readings.` }),
        onError: (error) => {
          toast({ title: 'Sensor update failed', description: errorMessage(error), variant: 'destructive' })
          recheckIdentity(error)
        },
      },
    )
  }

  return (
    <Card id={id} role="region" aria-labelledby={headingId} className="min-w-0 p-5" data-testid="equipment-detail">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <Heading ref={headingRef} id={headingId} tabIndex={-1} className="text-2xl font-bold text-white outline-none">
            {equipment.name}
          </Heading>
          <p className="text-sm text-slate-300">
            {[equipment.manufacturer, equipment.model, equipment.serialNumber && `S/N ${equipment.serialNumber}`].filter(Boolean).join(' · ')}
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <StatusBadge status={equipment.status} />
            <AlertBadge level={equipment.alertLevel} />
            <SyncBadge status={equipment.syncStatus} />
          </div>
        </div>
        <div className="flex gap-2">
          <Button
            onClick={onUpdateSensors}
            disabled={access.state !== 'allowed'}
            unavailable={update.isPending}
            aria-describedby={access.state === 'denied' ? noticeId : undefined}
          >
            <RefreshCw className={cn(update.isPending && 'animate-spin')} aria-hidden="true" />
            Update Sensors
          </Button>
          <Button variant="ghost" size="icon" onClick={onClose} aria-label={`Close ${equipment.name} details`}>
            <X aria-hidden="true" />
          </Button>
        </div>
      </div>
      {access.state === 'denied' && (
        <div className="mt-3">
          <DriveNotice access={access} id={noticeId} />
        </div>
      )}

      <Tabs defaultValue="overview" className="mt-5 min-w-0">
        <TabsList aria-label={`${equipment.name} details`}>
          <TabsTrigger value="overview">Overview</TabsTrigger>
          <TabsTrigger value="sensors">Sensors</TabsTrigger>
          <TabsTrigger value="protocols">Protocols</TabsTrigger>
          <TabsTrigger value="maintenance">Maintenance</TabsTrigger>
        </TabsList>
        <TabsContent value="overview" className="min-w-0">
          <OverviewTab equipment={equipment} />
        </TabsContent>
        <TabsContent value="sensors" className="min-w-0">
          <SensorsTab equipment={equipment} streams={streams} />
        </TabsContent>
        <TabsContent value="protocols" className="min-w-0">
          <ProtocolsTab equipment={equipment} />
        </TabsContent>
        <TabsContent value="maintenance" className="min-w-0">
          <MaintenanceTab equipment={equipment} />
        </TabsContent>
      </Tabs>
    </Card>
  )
})

function Facts({ items }: { items: [label: string, value: ReactNode][] }) {
  return (
    <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt className="text-xs uppercase tracking-wide text-slate-300">{label}</dt>
          <dd className="mt-0.5 text-sm text-white">{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  )
}

function HoursBar({ equipment }: { equipment: Equipment }) {
  const hours = equipment.operatingHours ?? 0
  return (
    <div>
      <div className="mb-1 flex justify-between text-xs text-slate-300">
        <span>Operating hours</span>
        <span>
          {formatNumber(hours, 0)} / {formatNumber(OPERATING_HOURS_SCALE, 0)} h
        </span>
      </div>
      <Progress value={operatingHoursPercent(hours)} aria-label={`${equipment.name} operating hours, detail`} />
    </div>
  )
}

function OverviewTab({ equipment }: { equipment: Equipment }) {
  const tradeName = useTradeName()
  return (
    <div className="space-y-5">
      <Facts
        items={[
          ['Type', equipment.type],
          ['Manufacturer', equipment.manufacturer],
          ['Model', equipment.model],
          ['Serial number', equipment.serialNumber],
          ['Communication', [equipment.communicationProtocol, equipment.protocolVersion].filter(Boolean).join(' ') || '—'],
          ['Sync errors', formatNumber(equipment.syncErrorCount ?? 0, 0)],
          ['Last updated', <time dateTime={equipment.lastUpdated ?? undefined}>{formatTime(equipment.lastUpdated)}</time>],
          ['Operating hours', `${formatNumber(equipment.operatingHours ?? 0, 1)} h`],
        ]}
      />
      <HoursBar equipment={equipment} />
      <div>
        <Heading depth={1} className="text-sm font-semibold text-white">Supported trades</Heading>
        <ul className="mt-2 flex flex-wrap gap-2">
          {(equipment.supportedTradeTypes ?? []).map((t) => (
            <li key={t}>
              <Badge variant="secondary">{tradeName(t)}</Badge>
            </li>
          ))}
        </ul>
      </div>
    </div>
  )
}

function Trend({ stream }: { stream: DataStream }) {
  if (stream.previousValue == null) return <span className="text-slate-300">—</span>
  const delta = stream.value - stream.previousValue
  const Icon = delta > 0 ? ArrowUpRight : delta < 0 ? ArrowDownRight : Minus
  return (
    <span className="inline-flex items-center gap-1">
      <Icon className="h-3.5 w-3.5" aria-hidden="true" />
      {delta > 0 ? '+' : ''}
      {formatNumber(delta)}
    </span>
  )
}

const qualityClasses: Record<string, string> = {
  good: 'border-emerald-400/40 bg-emerald-500/15 text-emerald-200',
  uncertain: 'border-amber-400/50 bg-amber-500/15 text-amber-200',
  bad: 'border-red-400/50 bg-red-500/20 text-red-200',
}

function SensorsTab({ equipment, streams }: { equipment: Equipment; streams: UseQueryResult<DataStream[]> }) {
  const readings = sensorReadings(equipment.sensorData)
  return (
    <div className="space-y-6">
      <section aria-labelledby={`${equipment.id}-readings`}>
        <Heading depth={1} id={`${equipment.id}-readings`} className="flex items-center gap-2 text-sm font-semibold text-white">
          <Gauge className="h-4 w-4" aria-hidden="true" /> Latest readings
        </Heading>
        {readings.length === 0 ? (
          <p className="mt-2 text-sm text-slate-300">No readings yet: press Update Sensors.</p>
        ) : (
          <dl className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="detail-readings">
            {readings.map((r) => (
              <div key={r.key} className="rounded-md bg-slate-800/70 px-3 py-2">
                <dt className="text-xs text-slate-300">{r.label}</dt>
                <dd className="font-mono text-sm font-semibold text-white" data-sensor={r.key}>
                  {formatReading(r.value, r.unit)}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </section>
      <section aria-labelledby={`${equipment.id}-streams`}>
        <Heading depth={1} id={`${equipment.id}-streams`} className="text-sm font-semibold text-white">
          Data streams
        </Heading>
        {streams.isPending ? (
          <p role="status" className="mt-2 text-sm text-slate-300">
            Loading data streams…
          </p>
        ) : streams.isError ? (
          <p role="alert" className="mt-2 text-sm text-red-300">
            Could not load data streams: {errorMessage(streams.error)}
          </p>
        ) : streams.data.length === 0 ? (
          <p className="mt-2 text-sm text-slate-300">No data streams yet.</p>
        ) : (
          // Focusable because it scrolls sideways on a phone: keyboard users must be able to scroll it.
          <div role="region" aria-label={`Data streams of ${equipment.name}`} tabIndex={0} className="mt-2 overflow-x-auto focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400">
            <table className="w-full text-left text-sm" data-testid="data-streams">
              <caption className="sr-only">Data streams of {equipment.name}</caption>
              <thead className="text-xs uppercase tracking-wide text-slate-300">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">Stream</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Value</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Previous</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Change</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Quality</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Trend</th>
                  <th scope="col" className="py-2 font-medium">Time</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-white/10">
                {streams.data.map((s) => (
                  <tr key={s.id}>
                    <th scope="row" className="py-2 pr-3 font-medium text-white">{s.streamName}</th>
                    <td className="py-2 pr-3 font-mono text-white">{formatReading(s.value, s.unit ?? '')}</td>
                    <td className="py-2 pr-3 font-mono text-slate-300">{s.previousValue == null ? '—' : formatReading(s.previousValue, s.unit ?? '')}</td>
                    <td className="py-2 pr-3 font-mono text-slate-200">
                      <Trend stream={s} />
                    </td>
                    <td className="py-2 pr-3">
                      <Badge variant="outline" className={cn(qualityClasses[s.qualityIndicator ?? ''] ?? 'border-white/20 text-slate-100', 'capitalize')}>
                        {s.qualityIndicator ?? 'unknown'}
                      </Badge>
                    </td>
                    <td className="py-2 pr-3">
                      <StreamSparkline stream={s} />
                    </td>
                    <td className="py-2 text-xs text-slate-300">
                      <time dateTime={s.timestamp ?? undefined}>{formatTime(s.timestamp)}</time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  )
}

function ProtocolsTab({ equipment }: { equipment: Equipment }) {
  const params = Object.entries(equipment.connectionParameters ?? {})
  return (
    <div className="space-y-5">
      <Facts
        items={[
          ['Protocol', equipment.communicationProtocol],
          ['Version', equipment.protocolVersion],
          ['Sync status', <SyncBadge status={equipment.syncStatus} />],
          ['Sync errors', formatNumber(equipment.syncErrorCount ?? 0, 0)],
        ]}
      />
      {params.length > 0 && (
        <div>
          <Heading depth={1} className="text-sm font-semibold text-white">Connection parameters</Heading>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            {params.map(([k, v]) => (
              <div key={k} className="contents">
                <dt className="text-slate-300">{k}</dt>
                <dd className="break-all font-mono text-white">{typeof v === 'string' ? v : JSON.stringify(v)}</dd>
              </div>
            ))}
          </dl>
        </div>
      )}
      <div>
        <Heading depth={1} className="mb-3 text-sm font-semibold text-white">Test the connection</Heading>
        {equipment.realDevice || equipment.connection ? (
          <RealDeviceNote equipment={equipment} address={equipment.connection?.address} />
        ) : (
          <ProtocolTester key={equipment.id} equipment={equipment} />
        )}
      </div>
    </div>
  )
}

/**
 * A twin connected to its real device has no demo device for Test Protocol
 * to talk to: the gateway reads the device, and staff test the connection
 * where they edit it.
 */
function RealDeviceNote({ equipment, address }: { equipment: Equipment; address: string | undefined }) {
  const manages = useManagesTwin(equipment)
  return (
    <p className="text-sm text-slate-300" data-testid="real-device-note">
      {address ? (
        <>
          Connected to its real device at <span className="font-mono text-white">{address}</span>;
        </>
      ) : (
        // Where the device is, only its organisation's staff are told.
        'Connected to its real device;'
      )}{' '}
      the gateway reads it and the sync status above says how that goes. Test Protocol speaks to demo devices only.{' '}
      {manages && (
        <Link href={`/digital-twin/manage?edit=${encodeURIComponent(equipment.id)}`} className="text-sky-300 underline">
          Test this connection on Manage equipment
        </Link>
      )}
    </p>
  )
}

interface ScheduleShape {
  intervalDays?: number
  tasks?: { task?: string; frequency?: string; trade?: string }[]
}

function MaintenanceTab({ equipment }: { equipment: Equipment }) {
  const tradeName = useTradeName()
  const days = daysUntil(equipment.nextMaintenanceDate, new Date())
  const schedule = (equipment.maintenanceSchedule ?? {}) as ScheduleShape
  const tasks = Array.isArray(schedule.tasks) ? schedule.tasks : []
  return (
    <div className="space-y-5">
      <Facts
        items={[
          ['Last maintenance', formatDate(equipment.lastMaintenance)],
          [
            'Next maintenance',
            <span>
              {formatDate(equipment.nextMaintenanceDate)}
              {days !== null && (
                <span className={cn('ml-2 text-xs', days < 0 ? 'text-red-300' : days <= 14 ? 'text-amber-200' : 'text-slate-300')}>
                  {days < 0 ? `overdue by ${-days} day${days === -1 ? '' : 's'}` : days === 0 ? 'due today' : `in ${days} day${days === 1 ? '' : 's'}`}
                </span>
              )}
            </span>,
          ],
          ['Service interval', typeof schedule.intervalDays === 'number' ? `every ${schedule.intervalDays} days` : '—'],
          ['Operating hours', `${formatNumber(equipment.operatingHours ?? 0, 1)} h`],
        ]}
      />
      <div>
        <Heading depth={1} className="text-sm font-semibold text-white">Maintenance schedule</Heading>
        {tasks.length === 0 ? (
          <p className="mt-2 text-sm text-slate-300">No scheduled tasks.</p>
        ) : (
          <ul className="mt-2 space-y-2">
            {tasks.map((t, i) => (
              <li key={`${t.task}-${i}`} className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-slate-800/60 px-3 py-2 text-sm">
                <span className="text-white">{t.task}</span>
                <span className="flex gap-2">
                  {t.frequency && <Badge variant="outline" className="capitalize">{t.frequency}</Badge>}
                  {t.trade && <Badge variant="secondary">{tradeName(t.trade)}</Badge>}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  )
}
