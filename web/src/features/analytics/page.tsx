import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react'
import { Link } from 'wouter'
import { Activity, Award, Brain, Clock, ShieldCheck, Target, TrendingUp } from 'lucide-react'
import { PageShell } from '@/components/page-shell'
import { Heading, useHeadingTag } from '@/components/heading'
import { Badge } from '@/components/ui/badge'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import {
  periodLabels,
  periods,
  sampleInsights,
  sampleMetrics,
  sampleSeries,
  sampleTradeProgress,
  type Period,
  type PeriodMetrics,
  type SeriesPoint,
} from '@/content/analytics'
import { useMe } from '@/api/account'
import { useBenchmarks } from '@/api/analytics'
import { Button } from '@/components/ui/button'
import { useTrades, useTrainingModules } from '@/api/catalog'
import { dueRefreshers, useRefreshers } from '@/api/learning'
import { learningSessions, useXrSessions, type LearningSession } from '@/api/xr-sessions'
import { benchmarkRows, figureText, referenceSource, type BenchmarkRow, type ReferenceSource } from './lib/benchmarks'
import { bucketize, filterByPeriod, insights, learnerLevel, summarize, tradeProgress } from './lib/metrics'

// recharts is heavy: it loads only once a chart is on screen.
const ActivityChart = lazy(() => import('./components/charts').then((m) => ({ default: m.ActivityChart })))
const SafetyTrendChart = lazy(() => import('./components/charts').then((m) => ({ default: m.SafetyTrendChart })))
const TradeProgressChart = lazy(() => import('./components/charts').then((m) => ({ default: m.TradeProgressChart })))
const BenchmarkChart = lazy(() => import('./components/charts').then((m) => ({ default: m.BenchmarkChart })))

function SampleBadge() {
  return <Badge variant="secondary">Sample data</Badge>
}

/** A chart in a labelled figure, with its figures as a table: for screen readers, or for everyone when tableVisible. */
function ChartFigure({
  title,
  sample,
  children,
  table,
  tableVisible = false,
}: {
  title: string
  sample: boolean
  children: ReactNode
  table: ReactNode
  tableVisible?: boolean
}) {
  const heading = useHeadingTag(1)
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between gap-2">
        <CardTitle as={heading} className="text-base">
          {title}
        </CardTitle>
        {sample ? <SampleBadge /> : null}
      </CardHeader>
      <CardContent>
        <figure aria-label={title}>
          <div aria-hidden="true">
            <Suspense fallback={<div className="h-[260px] animate-pulse rounded bg-slate-800/60" />}>{children}</Suspense>
          </div>
          <figcaption className={tableVisible ? 'mt-4 overflow-x-auto' : 'sr-only'}>{table}</figcaption>
        </figure>
      </CardContent>
    </Card>
  )
}

function SeriesTable({ data }: { data: SeriesPoint[] }) {
  return (
    <table>
      <thead>
        <tr>
          <th>Period</th>
          <th>Sessions</th>
          <th>Minutes</th>
          <th>Safety score</th>
        </tr>
      </thead>
      <tbody>
        {data.map((p) => (
          <tr key={p.label}>
            <td>{p.label}</td>
            <td>{p.sessions}</td>
            <td>{p.minutes}</td>
            <td>{p.safety ?? 'none'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function MetricCard({ icon, label, value, sample }: { icon: ReactNode; label: string; value: string; sample: boolean }) {
  return (
    <div className="rounded-xl border border-white/10 bg-slate-900/70 p-4">
      <dt className="flex items-center gap-2 text-sm text-slate-300">
        <span className="text-amber-400" aria-hidden="true">
          {icon}
        </span>
        {label}
        {sample ? <span className="sr-only">(sample)</span> : null}
      </dt>
      <dd className="mt-1 text-2xl font-bold text-white">{value}</dd>
    </div>
  )
}

// One empty list, so memos keyed on the sessions hold while they load.
const noSessions: LearningSession[] = []

const pct = (n: number | null) => (n === null ? 'No data' : `${n}%`)

/** The analytics dashboard's page (spec 001 §2). */
export default function AnalyticsPage() {
  return (
    <PageShell title="Analytics Dashboard">
      <AnalyticsDashboard />
    </PageShell>
  )
}

/**
 * The dashboard: level, period, and four tabs; the learner's own sessions
 * where they exist, sample data otherwise. Exported for /advanced.
 */
export function AnalyticsDashboard() {
  const [period, setPeriod] = useState<Period>('28d')
  const me = useMe()
  const sessions = useXrSessions(me.data?.id, { select: learningSessions })
  const modules = useTrainingModules()
  const catalogTrades = useTrades()
  const refreshers = useRefreshers({ select: dueRefreshers })
  const [now] = useState(() => new Date())

  const all = sessions.data ?? noSessions
  const inPeriod = useMemo(() => filterByPeriod(all, period, now), [all, period, now])
  // Sample data stands in for a period without a single real session.
  const sample = inPeriod.length === 0
  const metrics: PeriodMetrics = sample ? sampleMetrics[period] : summarize(inPeriod)
  const series: SeriesPoint[] = sample ? sampleSeries[period] : bucketize(all, period, now)
  const level = learnerLevel(all)
  const dueCount = (refreshers.data ?? []).filter((r) => Date.parse(r.due) <= now.getTime()).length
  const realInsights = insights(inPeriod, dueCount)
  const tradeName = (id: string) => catalogTrades.data?.find((t) => t.id === id)?.name ?? id
  const trades = sample || !modules.data || !catalogTrades.data ? sampleTradeProgress : tradeProgress(all, modules.data, tradeName)
  // An organisation member is compared with their organisation's learners; anyone else with sample figures.
  const inOrganisation = !!me.data && !me.data.guest && !!me.data.organisation
  const organisationBenchmarks = useBenchmarks(period, inOrganisation)
  const reference = referenceSource(inOrganisation, organisationBenchmarks)
  const benchmarks = benchmarkRows(metrics, period, 'figures' in reference ? reference.figures : null)

  const title = useHeadingTag()
  return (
    <>
      <div className="mt-4 flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-wrap items-center gap-3">
          <Badge className="px-3 py-1 text-sm">
            <Award className="mr-1 h-4 w-4" aria-hidden="true" />
            Level {level.level} · {level.title}
          </Badge>
          <span className="text-sm text-slate-300" data-detail="secondary">
            {level.xp} XP · {level.toNext} XP to the next level
          </span>
        </div>
        <div className="flex w-48 flex-col gap-2">
          <Label htmlFor="analytics-period">Period</Label>
          <Select value={period} onValueChange={(v) => setPeriod(v as Period)}>
            <SelectTrigger id="analytics-period">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {periods.map((p) => (
                <SelectItem key={p} value={p}>
                  {periodLabels[p]} ({p})
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </div>

      {sessions.isPending && me.isSuccess ? (
        <p role="status" className="mt-8 text-slate-300">
          Loading your sessions...
        </p>
      ) : sample ? (
        <div className="mt-6 flex flex-wrap items-center gap-3 rounded-lg border border-sky-500/40 bg-sky-500/10 p-4 text-sm text-sky-200" role="note">
          <SampleBadge />
          <span>
            No training sessions in this period ({periodLabels[period].toLowerCase()}), so the figures below are sample data. Train in the{' '}
            <Link href="/xr-training" className="font-semibold underline">
              XR Training Center
            </Link>{' '}
            to see your own.
          </span>
        </div>
      ) : null}

      <Tabs defaultValue="overview" className="mt-8">
        <TabsList aria-label="Analytics views">
          <TabsTrigger value="overview">Overview</TabsTrigger>
          <TabsTrigger value="insights">AI Insights</TabsTrigger>
          <TabsTrigger value="path">Learning Path</TabsTrigger>
          <TabsTrigger value="benchmarks">Benchmarks</TabsTrigger>
        </TabsList>

        <TabsContent value="overview" className="space-y-6">
          <Heading className="sr-only">Overview</Heading>
          <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <MetricCard icon={<Activity className="h-5 w-5" />} label="Sessions completed" value={String(metrics.sessions)} sample={sample} />
            <MetricCard icon={<Clock className="h-5 w-5" />} label="Training time" value={`${metrics.hours} hours`} sample={sample} />
            <MetricCard icon={<ShieldCheck className="h-5 w-5" />} label="Average safety score" value={pct(metrics.averageSafety)} sample={sample} />
            <MetricCard icon={<Target className="h-5 w-5" />} label="Modules passed" value={String(metrics.modulesCompleted)} sample={sample} />
          </dl>
          <div className="grid gap-6 lg:grid-cols-2">
            <ChartFigure title="Training activity" sample={sample} table={<SeriesTable data={series} />}>
              <ActivityChart data={series} />
            </ChartFigure>
            <ChartFigure title="Safety score trend" sample={sample} table={<SeriesTable data={series} />}>
              <SafetyTrendChart data={series} />
            </ChartFigure>
          </div>
        </TabsContent>

        <TabsContent value="insights">
          <Card>
            <CardHeader className="flex-row items-center justify-between gap-2">
              <CardTitle as={title} className="flex items-center gap-2">
                <Brain className="h-5 w-5 text-amber-400" aria-hidden="true" />
                AI Insights
              </CardTitle>
              {sample ? <SampleBadge /> : null}
            </CardHeader>
            <CardContent>
              <CardDescription className="mb-4" data-detail="secondary">
                Patterns found in your session records, each with the figures behind it.
              </CardDescription>
              <ul className="space-y-3">
                {(sample ? sampleInsights : realInsights).map((text) => (
                  <li key={text} className="flex gap-3 rounded-lg border border-white/10 p-3 text-sm text-slate-200">
                    <TrendingUp className="mt-0.5 h-4 w-4 shrink-0 text-amber-400" aria-hidden="true" />
                    {text}
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        </TabsContent>

        <TabsContent value="path" className="space-y-6">
          <Heading className="sr-only">Learning Path</Heading>
          <ChartFigure
            title="Progress by trade"
            sample={sample}
            table={
              <table>
                <tbody>
                  {trades.map((t) => (
                    <tr key={t.trade}>
                      <td>{t.trade}</td>
                      <td>{t.percent}%</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            }
          >
            <TradeProgressChart data={trades} />
          </ChartFigure>
          <p className="text-sm text-slate-300">
            Your next modules come from your{' '}
            <Link href="/ai-learning-paths" className="font-semibold text-amber-400 underline">
              AI learning paths
            </Link>{' '}
            and your progress in the{' '}
            <Link href="/learning-hub" className="font-semibold text-amber-400 underline">
              Learning Hub
            </Link>
            .
          </p>
        </TabsContent>

        <TabsContent value="benchmarks" className="space-y-4">
          <Heading className="sr-only">Benchmarks</Heading>
          <BenchmarksTab reference={reference} rows={benchmarks} sample={sample} retry={() => void organisationBenchmarks.refetch()} />
        </TabsContent>
      </Tabs>
    </>
  )
}

const referenceColumn = (source: ReferenceSource) => (source.kind === 'sample' ? 'Reference (sample)' : 'Your organisation')

/** The learner against the reference: the organisation's learners for a member, sample figures for anyone else. */
function BenchmarksTab({ reference, rows, sample, retry }: { reference: ReferenceSource; rows: BenchmarkRow[]; sample: boolean; retry: () => void }) {
  const yours = sample ? ' Your figures for this period are sample data.' : ' Your figures are from your own sessions.'
  const column = referenceColumn(reference)
  return (
    <>
      {reference.kind === 'sample' ? (
        <p className="text-sm text-slate-300" data-testid="benchmark-reference">
          The reference figures are illustrative sample figures: there is no cohort data to compare against yet.
          {sample ? ' Your figures for this period are sample data too.' : ' Your figures are from your own sessions.'}
        </p>
      ) : reference.kind === 'organisation' ? (
        <p className="text-sm text-slate-300" data-testid="benchmark-reference">
          Reference: your organisation's learners ({reference.learners}), each one's figures over the same period, averaged.
          {yours}
        </p>
      ) : reference.kind === 'loading' ? (
        <p role="status" className="text-sm text-slate-300">
          Loading your organisation's figures…
        </p>
      ) : (
        <p role="alert" className="flex flex-wrap items-center gap-3 text-sm text-red-200">
          Could not load your organisation's figures.
          <Button variant="outline" size="sm" onClick={retry}>
            Try again
          </Button>
        </p>
      )}
      <ChartFigure
        title={reference.kind === 'sample' ? 'You against the reference' : 'You against your organisation'}
        // Any sample figure in the comparison is labelled: the reference outside an organisation, or the learner's own in an empty period.
        sample={sample || reference.kind === 'sample'}
        tableVisible
        table={
          <table className="w-full max-w-2xl text-left text-sm">
            <thead>
              <tr className="border-b border-white/15 text-slate-300">
                <th scope="col" className="py-1.5 pr-4 font-semibold">
                  Metric
                </th>
                <th scope="col" className="py-1.5 pr-4 font-semibold">
                  You
                </th>
                <th scope="col" className="py-1.5 font-semibold">
                  {column}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((b) => (
                <tr key={b.metric} className="border-b border-white/10 last:border-b-0" data-benchmark={b.metric}>
                  <th scope="row" className="py-1.5 pr-4 font-normal text-slate-200">
                    {b.metric}
                  </th>
                  <td className="py-1.5 pr-4 text-white">{figureText(b.you)}</td>
                  <td className="py-1.5 text-white">{figureText(b.reference)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        }
      >
        <BenchmarkChart data={rows} referenceLabel={column} />
      </ChartFigure>
    </>
  )
}
