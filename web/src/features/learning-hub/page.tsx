import { useMemo, useState } from 'react'
import { Link } from 'wouter'
import { Award, BookOpen, Clock, Rocket, RotateCcw, Route, Trophy } from 'lucide-react'
import { PageShell } from '@/components/page-shell'
import { Badge } from '@/components/ui/badge'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Label } from '@/components/ui/label'
import { Progress } from '@/components/ui/progress'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { hubCategories, sampleHubModules, samplePathways, type HubModule, type Pathway } from '@/content/learning-hub'
import { cn } from '@/lib/utils'
import { useMe } from '@/api/account'
import { useTrades, useTrainingModules } from '@/api/catalog'
import { dueRefreshers, useRefreshers } from '@/api/learning'
import { usePersonalization } from '@/api/personalization'
import { learningSessions, useXrSessions } from '@/api/xr-sessions'
import { LaunchPanel } from './components/launch-panel'
import { ModuleCard } from './components/module-card'
import { filterByCategory, hubModulesFromSessions, journeySummary, nextModules, pathwaysFor, type CategoryFilter } from './lib/progress'

const filters: CategoryFilter[] = ['all', ...hubCategories]

/** Learning hub (spec 001 §2): career pathways, module cards by category, the journey summary and refreshers due. */
export default function LearningHubPage() {
  const me = useMe()
  const sessions = useXrSessions(me.data?.id, { select: learningSessions })
  const catalog = useTrainingModules()
  const trades = useTrades()
  const profile = usePersonalization()
  const refreshers = useRefreshers({ select: dueRefreshers })
  const [filter, setFilter] = useState<CategoryFilter>('all')
  const [chosenTrade, setChosenTrade] = useState<string | null>(null)

  const loading = me.isPending || (me.isSuccess && sessions.isPending) || catalog.isPending
  const real = (sessions.data?.length ?? 0) > 0 && !!catalog.data

  const titles = useMemo(() => new Map((catalog.data ?? []).map((m) => [m.id, m.title])), [catalog.data])
  const tradeIds = useMemo(() => [...new Set((catalog.data ?? []).map((m) => m.tradeId))], [catalog.data])
  const tradeName = (id: string) => trades.data?.find((t) => t.id === id)?.name ?? id

  // The trade shown: the learner's choice, else their profile's primary
  // trade, else the trade of their latest session, else electrical.
  const defaultTrade = useMemo(() => {
    const primary = profile.data?.primaryTrade
    if (primary && tradeIds.includes(primary)) return primary
    const latest = [...(sessions.data ?? [])].sort((a, b) => b.startedAt.localeCompare(a.startedAt))[0]
    const latestTrade = latest ? catalog.data?.find((m) => m.id === latest.moduleId)?.tradeId : undefined
    return latestTrade ?? 'electrical'
  }, [profile.data, sessions.data, catalog.data, tradeIds])
  const trade = chosenTrade ?? defaultTrade

  const modules: HubModule[] = useMemo(() => {
    if (!real || !catalog.data) return sampleHubModules
    return hubModulesFromSessions(
      catalog.data.filter((m) => m.tradeId === trade),
      sessions.data ?? [],
    )
  }, [real, catalog.data, sessions.data, trade])
  const pathways: Pathway[] = real ? pathwaysFor(tradeName(trade), modules) : samplePathways
  const summary = journeySummary(modules)
  const shown = filterByCategory(modules, filter)
  // Due as of when the page opened; a refresher falling due meanwhile shows on the next visit.
  const [now] = useState(() => Date.now())
  const due = (refreshers.data ?? []).filter((r) => new Date(r.due).getTime() <= now)
  // Launch buttons always name real catalog modules, even beside sample cards.
  const launchable = useMemo(() => {
    if (real) return nextModules(modules)
    const tradeModules = (catalog.data ?? []).filter((m) => m.tradeId === trade)
    return nextModules(hubModulesFromSessions(tradeModules, []))
  }, [real, modules, catalog.data, trade])

  return (
    <PageShell title="Learning Hub">
      <p className="mt-3 max-w-3xl text-slate-300">Your career pathways, every module and where you stand, in one place.</p>
      {loading ? (
        <p role="status" className="mt-8 text-slate-300">
          Loading your progress...
        </p>
      ) : (
        <>
          {!real ? (
            <div className="mt-6 flex flex-wrap items-center gap-3 rounded-lg border border-sky-500/40 bg-sky-500/10 p-4 text-sm text-sky-200" role="note">
              <Badge variant="secondary">Sample data</Badge>
              <span>
                You have no training sessions yet, so this page shows sample modules and pathways. Complete a session in the{' '}
                <Link href="/xr-training" className="font-semibold underline">
                  XR Training Center
                </Link>{' '}
                and your own progress replaces them.
              </span>
            </div>
          ) : (
            <div className="mt-6 flex max-w-xs flex-col gap-2">
              <Label htmlFor="hub-trade">Trade</Label>
              <Select value={trade} onValueChange={setChosenTrade}>
                <SelectTrigger id="hub-trade">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {tradeIds.map((id) => (
                    <SelectItem key={id} value={id}>
                      {tradeName(id)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          )}

          <section aria-labelledby="pathways-heading" className="mt-10">
            <h2 id="pathways-heading" className="flex items-center gap-2 text-2xl font-semibold text-white">
              <Route className="h-6 w-6 text-amber-400" aria-hidden="true" />
              Career pathways
              {!real ? <Badge variant="secondary">Sample</Badge> : null}
            </h2>
            <ul className="mt-4 grid gap-4 md:grid-cols-3">
              {pathways.map((p) => (
                <li key={p.id}>
                  <Card className="h-full">
                    <CardHeader>
                      <Badge variant="outline" className="w-fit capitalize">
                        {p.level}
                      </Badge>
                      <CardTitle as="h3">{p.name}</CardTitle>
                      <CardDescription data-detail="secondary">{p.description}</CardDescription>
                    </CardHeader>
                    <CardContent className="space-y-2">
                      <div className="flex justify-between text-sm text-slate-300">
                        <span>
                          {p.modules} {p.modules === 1 ? 'module' : 'modules'}
                        </span>
                        <span>{p.estimatedTime} hours</span>
                      </div>
                      <Progress value={p.completion} aria-label={`${p.name} completion`} />
                      <p className="text-sm font-semibold text-white">{p.completion}% complete</p>
                    </CardContent>
                  </Card>
                </li>
              ))}
            </ul>
          </section>

          <section aria-labelledby="modules-heading" className="mt-12">
            <div className="flex flex-wrap items-center justify-between gap-4">
              <h2 id="modules-heading" className="flex items-center gap-2 text-2xl font-semibold text-white">
                <BookOpen className="h-6 w-6 text-amber-400" aria-hidden="true" />
                Modules
                {!real ? <Badge variant="secondary">Sample</Badge> : null}
              </h2>
              <div role="group" aria-label="Filter modules by category" className="flex flex-wrap gap-1 rounded-lg bg-slate-800/80 p-1">
                {filters.map((f) => (
                  <button
                    key={f}
                    type="button"
                    aria-pressed={filter === f}
                    onClick={() => setFilter(f)}
                    className={cn(
                      'rounded-md px-3 py-1.5 text-sm font-medium capitalize focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400',
                      filter === f ? 'bg-amber-500 text-slate-950' : 'text-slate-200 hover:text-white',
                    )}
                  >
                    {f}
                  </button>
                ))}
              </div>
            </div>
            {shown.length === 0 ? (
              <p className="mt-4 text-slate-300">No {filter} modules in this trade.</p>
            ) : (
              <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Modules">
                {shown.map((m) => (
                  <li key={m.id}>
                    <ModuleCard module={m} sample={!real} />
                  </li>
                ))}
              </ul>
            )}
          </section>

          <section aria-labelledby="journey-heading" className="mt-12">
            <h2 id="journey-heading" className="flex items-center gap-2 text-2xl font-semibold text-white">
              <Trophy className="h-6 w-6 text-amber-400" aria-hidden="true" />
              Your journey
              {!real ? <Badge variant="secondary">Sample</Badge> : null}
            </h2>
            <dl className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
              <Stat icon={<Trophy className="h-5 w-5" />} term="Modules completed" value={`${summary.completed} of ${summary.total}`} />
              <Stat icon={<Rocket className="h-5 w-5" />} term="In progress" value={String(summary.inProgress)} />
              <Stat icon={<Clock className="h-5 w-5" />} term="Course time completed" value={`${Math.round((summary.minutesCompleted / 60) * 10) / 10} hours`} />
              <Stat icon={<Award className="h-5 w-5" />} term="Badges earned" value={String(summary.badges)} />
            </dl>
            <div className="mt-4 max-w-xl space-y-1">
              <Progress value={summary.percent} aria-label="Overall journey completion" />
              <p className="text-sm text-slate-300">{summary.percent}% of modules completed</p>
            </div>
          </section>

          <section aria-labelledby="refreshers-heading" className="mt-12">
            <h2 id="refreshers-heading" className="flex items-center gap-2 text-2xl font-semibold text-white">
              <RotateCcw className="h-6 w-6 text-amber-400" aria-hidden="true" />
              Refreshers due
            </h2>
            {due.length === 0 ? (
              <p className="mt-3 text-slate-300">Nothing to review right now. Completed modules come back for a short refresher before you forget them.</p>
            ) : (
              <ul className="mt-4 grid gap-3 md:grid-cols-2">
                {due.map((r) => (
                  <li key={r.moduleId} className="flex items-center justify-between gap-3 rounded-lg border border-white/10 bg-slate-900/70 p-4">
                    <span>
                      <span className="block font-medium text-white">{r.moduleTitle || titles.get(r.moduleId) || r.moduleId}</span>
                      <span className="block text-xs text-slate-300">Due {new Date(r.due).toLocaleString()}</span>
                    </span>
                    <Link href={`/xr-training?module=${encodeURIComponent(r.moduleId)}`} className="text-sm font-semibold text-amber-400 underline-offset-4 hover:underline">
                      Review<span className="sr-only">: {r.moduleTitle || titles.get(r.moduleId) || r.moduleId}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </section>

          <LaunchPanel userId={me.data?.id} modules={launchable} />
        </>
      )}
    </PageShell>
  )
}

function Stat({ icon, term, value }: { icon: React.ReactNode; term: string; value: string }) {
  return (
    <div className="rounded-xl border border-white/10 bg-slate-900/70 p-4">
      <dt className="flex items-center gap-2 text-sm text-slate-300">
        <span className="text-amber-400" aria-hidden="true">
          {icon}
        </span>
        {term}
      </dt>
      <dd className="mt-1 text-2xl font-bold text-white">{value}</dd>
    </div>
  )
}
