import { AlertTriangle } from 'lucide-react'
import { Card, CardContent, CardHeader } from '@/components/ui/card'
import { Heading } from '@/components/heading'
import { useEquipmentAlerts } from '@/api/twin'
import { ALERTS_POLL_MS, errorMessage, formatReading, formatTime, sensorLabel } from '../lib/equipment'
import { AlertBadge } from './state-badges'

/** The alerts derived by the server, each with its reading, threshold and time. */
export function AlertsList() {
  const alerts = useEquipmentAlerts({ refetchInterval: ALERTS_POLL_MS })
  return (
    <Card aria-labelledby="twin-alerts-heading" role="region">
      <CardHeader>
        <Heading id="twin-alerts-heading" className="flex items-center gap-2 text-lg font-semibold leading-tight text-white">
          <AlertTriangle className="h-5 w-5 text-amber-400" aria-hidden="true" />
          Equipment Alerts
          {alerts.data && <span className="text-sm font-normal text-slate-300">({alerts.data.length})</span>}
        </Heading>
      </CardHeader>
      <CardContent>
        {alerts.isPending ? (
          <p role="status" className="text-sm text-slate-300">
            Loading alerts…
          </p>
        ) : alerts.isError ? (
          <p role="alert" className="text-sm text-red-300">
            Could not load alerts: {errorMessage(alerts.error)}
          </p>
        ) : alerts.data.length === 0 ? (
          <p className="text-sm text-slate-300">No active alerts: every twin is within its limits.</p>
        ) : (
          // A focusable region because it scrolls: keyboard users must be able to reach every alert.
          <div role="region" aria-label="Active alerts" tabIndex={0} className="max-h-[32rem] overflow-y-auto pr-1 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400">
            <ul className="space-y-2">
              {alerts.data.map((a) => (
                <li key={a.id} data-testid="equipment-alert" className="rounded-md border border-white/10 bg-slate-800/60 p-3 text-sm">
                  <div className="flex flex-wrap items-center gap-2">
                    <AlertBadge level={a.level} />
                    <span className="font-semibold text-white">{a.equipmentName ?? a.equipmentId}</span>
                    {a.sensor && <span className="text-slate-300">· {sensorLabel(a.sensor)}</span>}
                  </div>
                  {a.message && <p className="mt-1 text-slate-200">{a.message}</p>}
                  <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-300">
                    {a.reading != null && (
                      <div className="flex gap-1">
                        <dt>Reading</dt>
                        <dd className="font-mono text-white">{formatReading(a.reading, a.unit ?? '')}</dd>
                      </div>
                    )}
                    {a.threshold != null && (
                      <div className="flex gap-1">
                        <dt>Threshold{a.comparison ? ` (${a.comparison})` : ''}</dt>
                        <dd className="font-mono text-white">{formatReading(a.threshold, a.unit ?? '')}</dd>
                      </div>
                    )}
                    <div className="flex gap-1">
                      <dt>Time</dt>
                      <dd>
                        <time dateTime={a.timestamp ?? undefined}>{formatTime(a.timestamp)}</time>
                      </dd>
                    </div>
                  </dl>
                </li>
              ))}
            </ul>
          </div>
        )}
      </CardContent>
    </Card>
  )
}
