import { useRef, useState } from 'react'
import { useSearchParams } from 'wouter'
import { Activity, AlertTriangle, Award, Clock, Glasses, LifeBuoy, OctagonX, ShieldCheck, Smartphone, Wifi, WifiOff, Wrench } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Progress } from '@/components/ui/progress'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { SafetyAlertDialog, useSafetyAlerts } from '@/components/safety-alerts'
import { SessionVerification, XRSessionLauncher, useXRCapabilities } from '@/components/xr'
import { cn } from '@/lib/utils'
import { useMe } from '@/api/account'
import { useXRAnalytics } from '@/api/analytics'
import { useTrainingModules, type TrainingModule } from '@/api/catalog'
import { outcomeLabel, useXrSessions, type SessionSummary } from '@/api/xr-sessions'
import { useSafetyChannel, safetyAlertText } from '@/features/xr-training/hooks/use-safety-channel'
import {
  AVERAGE_SESSION_MINUTES,
  chooseModule,
  deviceUsage,
  fixedPerformance,
  historyMinutes,
  pickerModules,
  safetyControls,
  statusLabel,
  trainingHours,
} from '@/features/xr-training/lib/format'

/** Sessions the history tab shows (spec 001 §9). */
const HISTORY_LIMIT = 10

/** The history tab's sessions: the newest ten. */
const recentSessions = (list: SessionSummary[]) => list.slice(0, HISTORY_LIMIT)

const controlIcons = { emergency: OctagonX, help: LifeBuoy, equipment: Wrench, general: AlertTriangle } as const

/** XR Training Center (spec 001 §2): sessions, progress, history and analytics. */
export default function XrTrainingPage() {
  const me = useMe()
  // The first call issues the guest cookie: the others wait for it so that they all run as the same learner.
  const modules = useTrainingModules({ enabled: me.isSuccess || me.isError })
  const caps = useXRCapabilities()
  const userId = me.data?.id
  const channel = useSafetyChannel(userId)
  // Every received alert interrupts until acknowledged: a dialog on the page, a panel in an immersive session.
  const alerts = useSafetyAlerts(channel.client)
  const analytics = useXRAnalytics(userId)
  const history = useXrSessions(userId, { select: recentSessions })
  const [searchParams, setSearchParams] = useSearchParams()
  const launcher = useRef<HTMLDivElement>(null)
  const [sessionRunning, setSessionRunning] = useState(false)

  if (me.isPending || modules.isPending) {
    return (
      <div className="flex min-h-[60vh] flex-col items-center justify-center gap-4" role="status">
        <span className="h-10 w-10 animate-spin rounded-full border-2 border-amber-400 border-t-transparent" aria-hidden="true" />
        <p className="text-slate-200">Loading XR training modules...</p>
        <SafetyAlertDialog alerts={alerts} />
      </div>
    )
  }

  const catalog = modules.data ?? []
  const selected = chooseModule(catalog, searchParams.get('module'))
  const choose = (m: TrainingModule) => {
    setSearchParams({ module: m.id }, { replace: true })
    // In one column the launcher is below the list, Safety Controls and the alerts log: a choice
    // would change nothing in view, so the page goes to it.
    if (window.matchMedia?.('(max-width: 1023px)').matches) {
      const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches
      requestAnimationFrame(() => launcher.current?.scrollIntoView({ block: 'start', behavior: smooth ? 'smooth' : 'auto' }))
    }
  }
  const connected = channel.status === 'connected'

  return (
    <section className="mx-auto w-full max-w-7xl px-4 py-12 sm:px-6 lg:px-8">
      <header className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">XR Training Center</h1>
          <p className="mt-2 text-slate-300">Immersive VR, AR and desktop training sessions with live safety monitoring.</p>
        </div>
        <div className="flex flex-wrap gap-2" aria-label="Status">
          <Badge variant={connected ? 'secondary' : 'outline'} data-testid="realtime-badge">
            {connected ? <Wifi className="mr-1 size-3" aria-hidden="true" /> : <WifiOff className="mr-1 size-3" aria-hidden="true" />}
            {connected ? 'Realtime Connected' : 'Realtime Disconnected'}
          </Badge>
          <Badge variant="outline">
            <Glasses className="mr-1 size-3" aria-hidden="true" />
            {caps.supportsVR ? 'VR Ready' : 'VR Not Available'}
          </Badge>
          <Badge variant="outline">
            <Smartphone className="mr-1 size-3" aria-hidden="true" />
            {caps.supportsAR ? 'AR Ready' : 'AR Not Available'}
          </Badge>
        </div>
      </header>

      {modules.isError ? (
        <p role="alert" className="mb-4 rounded-md border border-red-500/40 bg-red-500/10 p-3 text-sm text-red-100">
          The training modules could not be loaded. Reload the page to try again.
        </p>
      ) : null}

      <Tabs defaultValue="training">
        <TabsList>
          <TabsTrigger value="training">XR Training</TabsTrigger>
          <TabsTrigger value="progress">My Progress</TabsTrigger>
          <TabsTrigger value="history">Session History</TabsTrigger>
          <TabsTrigger value="analytics">Analytics</TabsTrigger>
        </TabsList>

        <TabsContent value="training" className="mt-6">
          <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
            <div className="space-y-6">
              <Card className="border-white/10 bg-slate-900/60">
                <CardHeader>
                  <CardTitle as="h2" className="text-white">
                    Select Training Module
                  </CardTitle>
                  {sessionRunning ? <CardDescription>End the running session to change module.</CardDescription> : null}
                </CardHeader>
                <CardContent className="space-y-2">
                  {pickerModules(catalog, selected?.id).map((m) => (
                    <Button
                      key={m.id}
                      variant={m.id === selected?.id ? 'default' : 'secondary'}
                      aria-pressed={m.id === selected?.id}
                      disabled={sessionRunning}
                      className="h-auto w-full flex-col items-start gap-1 whitespace-normal py-3 text-left"
                      onClick={() => choose(m)}
                    >
                      <span>{m.title}</span>
                      <span className="text-xs font-normal opacity-80">
                        <span className="capitalize">{m.difficulty}</span> · ~{m.estimatedDuration} min
                      </span>
                    </Button>
                  ))}
                  {catalog.length === 0 && !modules.isError ? <p className="text-sm text-slate-300">No training modules yet.</p> : null}
                </CardContent>
              </Card>

              <Card className="border-white/10 bg-slate-900/60">
                <CardHeader>
                  <CardTitle as="h2" className="text-white">
                    Safety Controls
                  </CardTitle>
                  <CardDescription>Alerts reach every connected trainer and learner at once.</CardDescription>
                </CardHeader>
                <CardContent className="grid grid-cols-2 gap-2">
                  {safetyControls.map((c) => {
                    const Icon = controlIcons[c.alertType]
                    return (
                      <Button
                        key={c.alertType}
                        variant={c.alertType === 'emergency' ? 'destructive' : 'outline'}
                        className="h-auto whitespace-normal py-3"
                        onClick={() => channel.raise({ alertType: c.alertType, description: c.description })}
                      >
                        <Icon aria-hidden="true" />
                        {c.label}
                      </Button>
                    )
                  })}
                </CardContent>
              </Card>

              <section aria-labelledby="alerts-heading" className="rounded-lg border border-white/10 bg-slate-900/60 p-4">
                <h2 id="alerts-heading" className="text-base font-semibold text-white">
                  Recent safety alerts
                </h2>
                {/* A log, announced politely: the alert dialog is what interrupts. */}
                <div role="log" aria-labelledby="alerts-heading">
                <ul className="mt-2 space-y-2" data-testid="safety-alerts">
                  {channel.alerts.map((a) => (
                    <li key={a.key} className="rounded-md border border-red-500/40 bg-red-500/10 p-2 text-sm text-red-100">
                      <span className="font-semibold">{safetyAlertText(a.description)}</span>
                      <span className="block text-xs text-red-200/80">
                        {a.alertType} · {new Date(a.at).toLocaleTimeString()}
                      </span>
                      {a.acknowledged && (
                        <span className="mt-1 block text-xs font-semibold text-emerald-200">
                          Acknowledged by {a.acknowledged.by}
                          {a.acknowledged.at && ` at ${new Date(a.acknowledged.at).toLocaleTimeString()}`}
                        </span>
                      )}
                    </li>
                  ))}
                </ul>
                </div>
                {channel.alerts.length === 0 ? <p className="mt-1 text-sm text-slate-400">No alerts since you opened this page.</p> : null}
              </section>
            </div>

            <div ref={launcher} className="min-w-0 scroll-mt-20">
              {selected ? (
                <XRSessionLauncher
                  key={selected.id}
                  moduleId={selected.id}
                  title={selected.title}
                  userId={userId}
                  capabilities={caps}
                  realtime={channel.client}
                  safetyAlerts={alerts}
                  onSessionStart={() => setSessionRunning(true)}
                  onSessionEnd={() => setSessionRunning(false)}
                />
              ) : (
                <XRSessionLauncher moduleId="" capabilities={caps} />
              )}
            </div>
          </div>
        </TabsContent>

        <TabsContent value="progress" className="mt-6 space-y-6">
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <StatCard icon={Activity} label="XR Sessions" value={String(analytics.data?.totalSessions ?? 0)} hint="completed sessions" />
            <StatCard icon={Clock} label="Training Time" value={`${trainingHours(analytics.data?.totalDuration ?? 0)}h`} hint="hours in XR" />
            <StatCard icon={ShieldCheck} label="Safety Score" value={`${analytics.data?.averageSafetyScore ?? 0}%`} hint="average safety compliance" />
            <StatCard icon={Award} label="Achievements" value={String(analytics.data?.completedModules ?? 0)} hint="modules completed" />
          </div>
          <Card className="border-white/10 bg-slate-900/60">
            <CardHeader>
              <CardTitle as="h2" className="text-white">
                Training Progress
              </CardTitle>
              <CardDescription>Share of each trade's modules you have passed in XR.</CardDescription>
            </CardHeader>
            <CardContent>
              {analytics.isError ? <p role="alert" className="text-sm text-red-300">Your progress could not be loaded.</p> : null}
              <ul className="space-y-4">
                {(analytics.data?.tradeProgress ?? []).map((t) => (
                  <li key={t.tradeId} data-trade={t.tradeId}>
                    <div className="mb-1 flex justify-between text-sm text-slate-200">
                      <span>{t.tradeName}</span>
                      <span>
                        {t.percent}% <span className="text-slate-400">({t.completed} of {t.total} modules)</span>
                      </span>
                    </div>
                    <Progress value={t.percent} aria-label={`${t.tradeName} progress`} />
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        </TabsContent>

        <TabsContent value="history" className="mt-6">
          <Card className="border-white/10 bg-slate-900/60">
            <CardHeader>
              <CardTitle as="h2" className="text-white">
                Recent XR Sessions
              </CardTitle>
            </CardHeader>
            <CardContent>
              {history.isError ? <p role="alert" className="text-sm text-red-300">Your sessions could not be loaded.</p> : null}
              {history.data && history.data.length === 0 ? <p className="text-sm text-slate-300">No XR sessions yet. Start one from the XR Training tab.</p> : null}
              <ul className="divide-y divide-white/10" data-testid="session-history">
                {(history.data ?? []).map((s) => (
                  <li key={s.id} className="flex flex-wrap items-center gap-3 py-3 text-sm">
                    {/* On a phone the title has a line of its own: beside the badges it was squeezed to a word a line. */}
                    <span className="min-w-0 grow basis-full font-medium text-white sm:basis-0">{s.moduleTitle || s.moduleId}</span>
                    <Badge variant="outline">{s.sessionType.toUpperCase()}</Badge>
                    <span className="text-slate-300">{historyMinutes(s.duration)} min</span>
                    {typeof s.safetyScore === 'number' ? <span className="text-slate-300">Safety {s.safetyScore}%</span> : null}
                    <Badge variant={s.completionStatus === 'in_progress' ? 'outline' : 'secondary'} className="capitalize">
                      {statusLabel(s.completionStatus)}
                    </Badge>
                    {/* Ended is not passed: the result as the portal shows it to the instructor. */}
                    {s.completionStatus === 'completed' && s.outcome ? (
                      <Badge variant={s.outcome === 'failed' ? 'failed' : 'passed'}>{outcomeLabel(s.completionStatus, s.outcome)}</Badge>
                    ) : null}
                    {s.startedAt ? (
                      <time className="text-slate-400" dateTime={s.startedAt}>
                        {new Date(s.startedAt).toLocaleDateString()}
                      </time>
                    ) : null}
                    {s.completionStatus === 'completed' ? (
                      <SessionVerification
                        verified={s.verified}
                        issues={s.verificationIssues}
                        compact
                        className={s.verified === false ? 'basis-full' : undefined}
                      />
                    ) : null}
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        </TabsContent>

        <TabsContent value="analytics" className="mt-6">
          <div className="grid gap-6 md:grid-cols-2">
            <Card className="border-white/10 bg-slate-900/60">
              <CardHeader>
                <CardTitle as="h2" className="text-white">
                  Performance
                </CardTitle>
              </CardHeader>
              <CardContent className="space-y-4">
                {fixedPerformance.map((f) => (
                  <div key={f.label}>
                    <div className="mb-1 flex justify-between text-sm text-slate-200">
                      <span>{f.label}</span>
                      <span>{f.value}%</span>
                    </div>
                    <Progress value={f.value} aria-label={f.label} />
                  </div>
                ))}
                <div className="flex justify-between text-sm text-slate-200">
                  <span>Average Session Time</span>
                  <span>{AVERAGE_SESSION_MINUTES} min</span>
                </div>
              </CardContent>
            </Card>
            <Card className="border-white/10 bg-slate-900/60">
              <CardHeader>
                <CardTitle as="h2" className="text-white">
                  Device Usage
                </CardTitle>
              </CardHeader>
              <CardContent className="space-y-4">
                {deviceUsage.map((d) => (
                  <div key={d.label}>
                    <div className="mb-1 flex justify-between text-sm text-slate-200">
                      <span>{d.label}</span>
                      <span>{d.value}%</span>
                    </div>
                    <Progress value={d.value} aria-label={`${d.label} usage`} />
                  </div>
                ))}
              </CardContent>
            </Card>
          </div>
        </TabsContent>
      </Tabs>
      <SafetyAlertDialog alerts={alerts} />
    </section>
  )
}

function StatCard(props: { icon: typeof Activity; label: string; value: string; hint: string }) {
  const Icon = props.icon
  return (
    <Card className={cn('border-white/10 bg-slate-900/60')}>
      <CardContent className="flex items-center gap-4 p-5">
        <Icon className="size-8 text-amber-400" aria-hidden="true" />
        <div>
          <p className="text-sm text-slate-300">{props.label}</p>
          <p className="text-2xl font-bold text-white" data-testid={`stat-${props.label.toLowerCase().replace(/\s+/g, '-')}`}>
            {props.value}
          </p>
          <p className="text-xs text-slate-400">{props.hint}</p>
        </div>
      </CardContent>
    </Card>
  )
}
