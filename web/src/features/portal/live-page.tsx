import { useMemo, useRef, useState } from 'react'
import { AlertTriangle, RefreshCw, Wifi, WifiOff } from 'lucide-react'
import type { Me } from '@/api/account'
import { usePortalLive, type PortalLiveSession } from '@/api/portal'
import { useRecentSafetyAlerts } from '@/api/realtime'
import { Button } from '@/components/ui/button'
import type { RealtimeStatus } from '@/lib/realtime'
import { cn } from '@/lib/utils'
import { LiveAlertList } from './components/live-alerts'
import { LiveSessionsTable } from './components/live-sessions-table'
import { ObservePanel } from './components/observe-panel'
import { PortalAccess, PortalPage } from './components/portal-access'
import { LoadError, Loading, PortalHeader, linkClass } from './components/shared'
import { useLiveChannel, type Announcement, type WatchState } from './hooks/use-live-channel'
import { useNow } from './hooks/use-now'

/** The alerts the page lists: the newest, then every one raised while it is open. */
const ALERT_LIMIT = 50

/**
 * /portal/live (instructors and admins): the organisation's running
 * sessions and safety alerts as they happen, one session observed at a
 * time with a message or a stop for its learner.
 */
export default function PortalLivePage() {
  return <PortalAccess>{(me) => <LiveView me={me} />}</PortalAccess>
}

function LiveView({ me }: { me: Me }) {
  const channel = useLiveChannel(me.id, ALERT_LIMIT)
  const sessions = usePortalLive()
  const alerts = useRecentSafetyAlerts(ALERT_LIMIT)
  const nowMs = useNow(10_000)
  const [observed, setObserved] = useState<PortalLiveSession | null>(null)
  // Where the keyboard goes back to when observing stops: the button that started it.
  const observeFrom = useRef<HTMLButtonElement | null>(null)
  const sessionsHeading = useRef<HTMLHeadingElement>(null)

  // A session that ended while the page was open stays gone, whatever a list read meanwhile says.
  const running = useMemo(() => {
    const ended = new Set(channel.ended.map((s) => s.sessionId))
    return (sessions.data ?? []).filter((s) => !ended.has(s.sessionId))
  }, [sessions.data, channel.ended])
  const runningIds = useMemo(() => new Set(running.map((s) => s.sessionId)), [running])
  // The observed session as the list has it now; once it has left the list, as it ended (or as last seen).
  const observedNow = observed ? (running.find((s) => s.sessionId === observed.sessionId) ?? channel.ended.find((s) => s.sessionId === observed.sessionId) ?? observed) : null
  const unacknowledged = (alerts.data ?? []).filter((a) => !a.acknowledgement).length

  const observe = (session: PortalLiveSession, button: HTMLButtonElement) => {
    observeFrom.current = button
    setObserved(session)
  }
  const stopObserving = () => {
    const back = observeFrom.current
    setObserved(null)
    // The button that opened the panel if it is still there (its session still runs), else the list's heading.
    requestAnimationFrame(() => (back?.isConnected ? back : sessionsHeading.current)?.focus())
  }

  return (
    <PortalPage>
      <PortalHeader
        trail={[{ label: 'Portal', href: '/portal' }]}
        title="Live view"
        subtitle={`Who in ${me.organisation?.name ?? 'your organisation'} is training right now, and the safety alerts they raise, as it happens.`}
        actions={<ConnectionStatus status={channel.status} connectedOnce={channel.connectedOnce} watch={channel.watch} onReconnect={channel.reconnect} />}
      />
      {unacknowledged > 0 ? (
        // Below xl the alerts come after the sessions (and the observed one): this keeps them one step away.
        <p className="-mt-4 mb-6 flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md border border-red-500/50 bg-red-500/10 px-3 py-2 text-sm text-red-100 xl:hidden">
          <AlertTriangle className="h-4 w-4 shrink-0" aria-hidden="true" />
          <span className="font-semibold">{unacknowledged === 1 ? '1 safety alert is' : `${unacknowledged} safety alerts are`} not acknowledged.</span>
          <a href="#live-alerts-heading" className={linkClass}>
            Go to the alerts
          </a>
        </p>
      ) : null}
      <div className="grid gap-8 xl:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-8">
          <section aria-labelledby="live-sessions-heading">
            <h2 id="live-sessions-heading" ref={sessionsHeading} tabIndex={-1} className="mb-4 scroll-mt-20 text-xl font-semibold text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400">
              Running sessions
              {sessions.data ? <span className="ml-2 text-base font-normal text-slate-300">({running.length})</span> : null}
            </h2>
            <LiveRegion said={channel.sessionSaid} politeness="polite" />
            {sessions.isPending ? (
              <Loading what="the running sessions" />
            ) : sessions.isError ? (
              <LoadError error={sessions.error} what="the running sessions" noun="list" />
            ) : running.length === 0 ? (
              <p className="max-w-2xl text-slate-300" data-testid="no-live-sessions">
                Nobody in your organisation is training right now. A session shows here as soon as a learner starts one.
              </p>
            ) : (
              <LiveSessionsTable sessions={running} observedId={observed?.sessionId ?? null} nowMs={nowMs} onObserve={observe} />
            )}
          </section>
          {observedNow ? (
            <ObservePanel key={observedNow.sessionId} session={observedNow} running={runningIds.has(observedNow.sessionId)} onClose={stopObserving} />
          ) : null}
        </div>

        <section aria-labelledby="live-alerts-heading" className="min-w-0">
          <h2 id="live-alerts-heading" tabIndex={-1} className="mb-4 scroll-mt-20 text-xl font-semibold text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400">
            Safety alerts
            {unacknowledged > 0 ? <span className="ml-2 text-base font-normal text-red-200">({unacknowledged} not acknowledged)</span> : null}
          </h2>
          <LiveRegion said={channel.alertSaid} politeness="assertive" />
          {alerts.isPending ? (
            <Loading what="the safety alerts" />
          ) : alerts.isError ? (
            <LoadError error={alerts.error} what="the safety alerts" noun="list" />
          ) : alerts.data.length === 0 ? (
            <p className="text-slate-300" data-testid="no-live-alerts">
              No safety alerts in your organisation. One shows here the moment a learner raises it.
            </p>
          ) : (
            <LiveAlertList
              alerts={alerts.data}
              runningIds={runningIds}
              nowMs={nowMs}
              onObserve={(sessionId, button) => {
                const session = running.find((s) => s.sessionId === sessionId)
                if (session) observe(session, button)
              }}
            />
          )}
        </section>
      </div>
    </PortalPage>
  )
}

/**
 * A region screen readers know from the start, so each new line is read
 * out; the key makes the same words said again a new line.
 */
function LiveRegion({ said, politeness }: { said: Announcement; politeness: 'polite' | 'assertive' }) {
  return (
    <div aria-live={politeness} aria-atomic="true" className="sr-only" data-testid={`live-region-${politeness}`}>
      {said.text ? <span key={said.n}>{said.text}</span> : null}
    </div>
  )
}

function connectionText(status: RealtimeStatus, connectedOnce: boolean, watch: WatchState): string {
  if (watch.kind === 'refused') return `No live updates: ${watch.message}`
  if (status === 'error') return 'Live updates stopped: the connection could not be restored.'
  if (status !== 'connected') return connectedOnce ? 'Reconnecting… The lists catch up once the connection is back.' : 'Connecting to live updates…'
  return watch.kind === 'watching' ? 'Live: updates arrive as they happen.' : 'Connecting to live updates…'
}

function ConnectionStatus({ status, connectedOnce, watch, onReconnect }: { status: RealtimeStatus; connectedOnce: boolean; watch: WatchState; onReconnect: () => void }) {
  const live = status === 'connected' && watch.kind === 'watching'
  const failed = status === 'error' || watch.kind === 'refused'
  return (
    <div className="flex flex-wrap items-center gap-2">
      <p
        role="status"
        className={cn(
          'flex items-center gap-2 rounded-full border px-3 py-1 text-sm',
          live ? 'border-emerald-500/40 bg-emerald-500/10 text-emerald-100' : failed ? 'border-red-500/40 bg-red-500/10 text-red-100' : 'border-amber-500/40 bg-amber-500/10 text-amber-100',
        )}
        data-testid="live-connection"
        data-state={live ? 'live' : failed ? 'failed' : 'connecting'}
      >
        {live ? <Wifi className="h-4 w-4" aria-hidden="true" /> : <WifiOff className="h-4 w-4" aria-hidden="true" />}
        {connectionText(status, connectedOnce, watch)}
      </p>
      {status === 'error' ? (
        <Button size="sm" variant="outline" onClick={onReconnect}>
          <RefreshCw aria-hidden="true" />
          Reconnect
        </Button>
      ) : null}
    </div>
  )
}
