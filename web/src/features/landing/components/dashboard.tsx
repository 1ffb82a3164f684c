import type { ComponentType } from 'react'
import { Link } from 'wouter'
import { Award, BarChart3, BookOpen, Building2, Globe, Headphones, PenTool, Settings, ShieldCheck, Users } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { quickActions, recentActivity } from '@/content/landing'
import { scrollToId } from '@/lib/scroll'
import { useMe } from '@/api/account'
import { useDashboardStats } from '@/api/analytics'
import { formatCount, formatSafetyScore, statsScopeText, type DashboardFigure } from '../lib/dashboard-stats'

interface Tile {
  key: DashboardFigure
  label: string
  icon: ComponentType<{ className?: string }>
  format: (n: number) => string
}

const tiles: readonly Tile[] = [
  { key: 'activeLearners', label: 'Active Learners', icon: Users, format: formatCount },
  { key: 'totalCertifications', label: 'Certifications Earned', icon: Award, format: formatCount },
  { key: 'totalXrSessions', label: 'XR Sessions', icon: Headphones, format: formatCount },
  { key: 'averageSafetyScore', label: 'Avg Safety Score', icon: ShieldCheck, format: formatSafetyScore },
]

const actionIcons = [PenTool, BarChart3, BookOpen, Settings] as const

/** Learning Management Dashboard (#dashboard): live tiles, recent activity, quick actions. */
export function LearningDashboard() {
  const stats = useDashboardStats()
  const me = useMe()
  const scope = statsScopeText(stats.data?.scope, me.data?.organisation?.name)
  const ScopeIcon = stats.data?.scope === 'organisation' ? Building2 : Globe
  return (
    <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
      <h2 id="dashboard-title" className="text-3xl font-bold text-white sm:text-4xl">
        Learning Management Dashboard
      </h2>
      <p className="mt-3 max-w-2xl text-slate-300">{scope.description}</p>

      <p id="dashboard-scope" className="mt-8 flex items-center gap-2 text-sm font-semibold text-amber-300" data-testid="stats-scope">
        {scope.label && <ScopeIcon className="h-4 w-4" aria-hidden="true" />}
        {scope.label}
      </p>
      <dl className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-busy={stats.isPending} aria-labelledby={scope.label ? 'dashboard-scope' : undefined}>
        {tiles.map(({ key, label, icon: Icon, format }) => (
          <Card key={key} className="p-5">
            <dt className="flex items-center justify-between text-sm font-medium text-slate-300">
              {label}
              <Icon className="h-5 w-5 text-amber-400" aria-hidden="true" />
            </dt>
            <dd className="mt-2 text-3xl font-bold text-white" data-testid={`stat-${key}`}>
              {stats.isPending ? '…' : stats.isError ? '—' : format(stats.data[key])}
            </dd>
          </Card>
        ))}
      </dl>
      {stats.isError && (
        <p role="alert" className="mt-3 flex items-center gap-3 text-sm text-red-200">
          The live figures could not be loaded.
          <Button variant="outline" size="sm" onClick={() => stats.refetch()}>
            Try again
          </Button>
        </p>
      )}

      <div className="mt-10 grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Recent Activity</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="divide-y divide-white/10">
              {recentActivity.map((row) => (
                <li key={row.learner} className="flex items-center justify-between gap-4 py-3">
                  <div>
                    <p className="text-slate-100">
                      <span className="font-semibold">{row.learner}</span> {row.action}
                    </p>
                    <p className="text-xs text-slate-400">{row.when}</p>
                  </div>
                  <span className="rounded-full bg-emerald-500/15 px-2.5 py-1 text-sm font-semibold text-emerald-300">
                    +{row.points}
                    <span className="sr-only"> points</span>
                  </span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Quick Actions</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-2">
              {quickActions.map((action, i) => {
                const Icon = actionIcons[i]
                const className =
                  'flex w-full items-center gap-3 rounded-lg border border-white/10 bg-white/5 px-4 py-3 text-left transition-colors hover:bg-white/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400'
                const body = (
                  <>
                    <Icon className="h-5 w-5 shrink-0 text-amber-400" aria-hidden="true" />
                    <span>
                      <span className="block font-semibold text-white">{action.label}</span>
                      <span className="block text-xs text-slate-400">{action.description}</span>
                    </span>
                  </>
                )
                return (
                  <li key={action.label}>
                    {action.href.startsWith('#') ? (
                      <a
                        href={action.href}
                        className={className}
                        onClick={(event) => {
                          event.preventDefault()
                          window.history.replaceState(window.history.state, '', action.href)
                          scrollToId(action.href.slice(1))
                        }}
                      >
                        {body}
                      </a>
                    ) : (
                      <Link href={action.href} className={className}>
                        {body}
                      </Link>
                    )}
                  </li>
                )
              })}
            </ul>
          </CardContent>
        </Card>
      </div>
    </div>
  )
}
