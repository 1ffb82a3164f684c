import { useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Link } from 'wouter'
import { Activity, CheckCircle2, Eye, Gauge, LogIn, Play, ShieldCheck, Square, Users } from 'lucide-react'
import { DemoRequestButton } from '@/components/demo-request'
import { PageShell } from '@/components/page-shell'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { RUNNING_TIMER_TEXT, STOPPED_TIMER_TEXT, demoSceneStatusLabel, demoScenes, xrFeaturesActive } from '@/content/live-demo'
import { liveSessionsQueryOptions, type LiveSession } from '@/api/realtime'
import { LiveSessionObserver } from './components/live-session-observer'
import { useDemoTicker } from './hooks/use-demo-ticker'
import { formatPercent } from './lib/stats'

type JoinState = { kind: 'idle' } | { kind: 'checking' } | { kind: 'none' } | { kind: 'failed' } | { kind: 'watching'; session: LiveSession; others: LiveSession[] }

/** Live XR Demo (seed 001 §2, §3, §9): simulated counters, the demo viewer, and joining a real running session as an observer. */
export default function LiveDemoPage() {
  const [running, setRunning] = useState(false)
  const stats = useDemoTicker(running)
  const [join, setJoin] = useState<JoinState>({ kind: 'idle' })
  const queryClient = useQueryClient()
  const featured = demoScenes.find((s) => s.status === 'live') ?? demoScenes[0]

  const joinSession = async () => {
    setJoin({ kind: 'checking' })
    try {
      const sessions = await queryClient.fetchQuery(liveSessionsQueryOptions())
      setJoin(sessions.length === 0 ? { kind: 'none' } : { kind: 'watching', session: sessions[0], others: sessions.slice(1, 6) })
    } catch (err) {
      console.error('Could not list live XR sessions', err)
      setJoin({ kind: 'failed' })
    }
  }

  const statCards = [
    { label: 'Live Viewers', value: stats.viewers.toLocaleString('en-US'), icon: Eye },
    { label: 'Active Trainees', value: String(stats.activeUsers), icon: Users },
    { label: 'Completion Rate', value: formatPercent(stats.completionRate), icon: CheckCircle2 },
    { label: 'Safety Incidents', value: String(stats.safetyIncidents), icon: ShieldCheck },
  ]

  return (
    <PageShell title="Live XR Demo">
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Badge variant="live" className="px-3 py-1 text-sm">
          <span className="mr-1.5 inline-block h-2 w-2 animate-pulse rounded-full bg-white" aria-hidden="true" />
          LIVE
        </Badge>
        <p className="text-slate-300">Watch trades training happen in XR: a simulated demo feed, and any real session running right now.</p>
      </div>

      <dl className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {statCards.map(({ label, value, icon: Icon }) => (
          <div key={label} className="rounded-xl border border-white/10 bg-slate-900/70 p-5 shadow-lg">
            <dt className="flex items-center gap-2 text-sm text-slate-300">
              <Icon className="h-5 w-5 text-amber-400" aria-hidden="true" />
              {label}
            </dt>
            <dd className="mt-1 text-2xl font-bold tabular-nums text-white" data-testid={`stat-${label.toLowerCase().replace(/ /g, '-')}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>

      <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_22rem]">
        <section aria-labelledby="viewer-heading" className="space-y-4">
          <h2 id="viewer-heading" className="sr-only">
            Demo viewer
          </h2>
          <div
            className="relative aspect-video overflow-hidden rounded-xl border border-white/10 bg-gradient-to-br from-slate-900 via-slate-800 to-slate-950"
            data-testid="demo-viewer"
            data-running={running}
          >
            <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 p-6 text-center">
              {running ? (
                <>
                  <Activity className="h-12 w-12 animate-pulse text-amber-400" aria-hidden="true" />
                  <p className="text-xl font-semibold text-white">{featured.title}</p>
                  <p className="max-w-md text-sm text-slate-300">{featured.description}</p>
                  <p className="flex items-center gap-1 text-sm text-slate-200">
                    <Gauge className="h-4 w-4" aria-hidden="true" />
                    Average score <span data-testid="stat-average-score">{formatPercent(stats.averageScore)}</span>
                  </p>
                </>
              ) : (
                <>
                  <Play className="h-12 w-12 text-slate-400" aria-hidden="true" />
                  <p className="text-lg text-slate-200">Start the live demo to watch {featured.title}.</p>
                </>
              )}
            </div>
            <div className="absolute left-3 top-3 rounded bg-black/60 px-2 py-1 text-sm font-medium text-white" data-testid="demo-timer">
              {running ? RUNNING_TIMER_TEXT : STOPPED_TIMER_TEXT}
            </div>
          </div>
          <div className="flex flex-wrap gap-3">
            <Button variant={running ? 'destructive' : 'default'} onClick={() => setRunning((r) => !r)}>
              {running ? <Square aria-hidden="true" /> : <Play aria-hidden="true" />}
              {running ? 'Stop Demo' : 'Start Live Demo'}
            </Button>
            <Button variant="outline" onClick={() => void joinSession()} unavailable={join.kind === 'checking'}>
              <LogIn aria-hidden="true" />
              Join XR Session
            </Button>
            {join.kind === 'watching' ? (
              <Button variant="ghost" onClick={() => setJoin({ kind: 'idle' })}>
                Leave session
              </Button>
            ) : null}
          </div>
          <div aria-live="polite">
            {join.kind === 'checking' ? (
              <p role="status" className="text-sm text-slate-300">
                Looking for a live XR session…
              </p>
            ) : join.kind === 'none' ? (
              <p role="status" className="rounded-lg border border-sky-500/40 bg-sky-500/10 p-3 text-sm text-sky-100">
                No live XR session right now: nobody is training in XR at the moment. Start one yourself in the{' '}
                <Link href="/xr-training" className="font-semibold underline">
                  XR Training Center
                </Link>
                , or try again in a few minutes.
              </p>
            ) : join.kind === 'failed' ? (
              <p role="alert" className="text-sm text-red-300">
                Could not look up live XR sessions. Check your connection and try again.
              </p>
            ) : null}
          </div>
          {join.kind === 'watching' ? (
            <div className="space-y-3">
              <LiveSessionObserver key={join.session.id} session={join.session} />
              {join.others.length > 0 ? (
                <div className="flex flex-wrap items-center gap-2 text-sm text-slate-300">
                  <span>Other live sessions:</span>
                  {join.others.map((s) => (
                    <Button
                      key={s.id}
                      size="sm"
                      variant="outline"
                      onClick={() => setJoin({ kind: 'watching', session: s, others: [join.session, ...join.others.filter((o) => o.id !== s.id)] })}
                    >
                      Watch {s.moduleTitle || s.moduleId}
                    </Button>
                  ))}
                </div>
              ) : null}
            </div>
          ) : null}
        </section>

        <aside className="space-y-6" aria-label="Sessions and features">
          <Card>
            <CardHeader>
              <CardTitle as="h2">Available Sessions</CardTitle>
            </CardHeader>
            <CardContent>
              <ul className="space-y-3">
                {demoScenes.map((s) => (
                  <li key={s.id} data-scene-id={s.id} className="rounded-lg border border-white/10 p-3">
                    <div className="flex items-start justify-between gap-2">
                      <p className="font-semibold text-white">{s.title}</p>
                      <Badge variant={s.status === 'live' ? 'live' : 'secondary'}>{demoSceneStatusLabel[s.status]}</Badge>
                    </div>
                    <p className="mt-1 text-sm text-slate-300">
                      {s.duration} · {s.difficulty} · {s.participants} participants
                    </p>
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle as="h2">XR Features Active</CardTitle>
            </CardHeader>
            <CardContent>
              <ul className="space-y-2 text-sm text-slate-200">
                {xrFeaturesActive.map((f) => (
                  <li key={f} className="flex items-center gap-2">
                    <CheckCircle2 className="h-4 w-4 text-emerald-400" aria-hidden="true" />
                    {f}
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        </aside>
      </div>

      <div className="mt-12 flex flex-wrap justify-center gap-4">
        <Button asChild size="lg">
          <Link href="/xr-training">Start Your Training Journey</Link>
        </Button>
        <DemoRequestButton size="lg" variant="outline" title="Schedule a personal demo">
          Schedule Personal Demo
        </DemoRequestButton>
      </div>
    </PageShell>
  )
}
