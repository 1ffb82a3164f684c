import { Link } from 'wouter'
import { RotateCcw } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import type { Refresher } from '@/api/learning'

function dueText(due: string, now: Date): string {
  const ms = now.getTime() - new Date(due).getTime()
  const days = Math.floor(ms / 86_400_000)
  if (ms < 0) return `due ${new Date(due).toLocaleDateString()}`
  if (days < 1) return 'due today'
  return `overdue by ${days} ${days === 1 ? 'day' : 'days'}`
}

/**
 * Refreshers of completed modules that FSRS says are due: apprentices forget
 * most of a module within a day, so these come before new material.
 */
export function RefreshersList({ refreshers, titles, now = new Date() }: { refreshers: Refresher[]; titles: Map<string, string>; now?: Date }) {
  const due = refreshers.filter((r) => new Date(r.due).getTime() <= now.getTime())
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h3" className="flex items-center gap-2">
          <RotateCcw className="h-5 w-5 text-amber-400" aria-hidden="true" />
          Refreshers due
        </CardTitle>
        <CardDescription data-detail="secondary">Short review sessions of modules you completed, spaced so they stick.</CardDescription>
      </CardHeader>
      <CardContent>
        {due.length === 0 ? (
          <p className="text-sm text-slate-300">No refreshers are due. Complete a module in the XR Training Center and its first refresher is scheduled within a day.</p>
        ) : (
          <ul className="space-y-2">
            {due.map((r) => (
              <li key={r.moduleId} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-white/10 p-3">
                <div>
                  <p className="font-medium text-white">{r.moduleTitle || titles.get(r.moduleId) || r.moduleId}</p>
                  <p className="text-xs text-slate-300">
                    {dueText(r.due, now)}
                    <span data-detail="advanced">
                      {' '}
                      · stability {r.stability.toFixed(1)} days · {r.reps} reviews · {r.lapses} lapses
                    </span>
                  </p>
                </div>
                <div className="flex items-center gap-2">
                  <Badge variant="secondary">{r.state || 'review'}</Badge>
                  <Link href={`/xr-training?module=${encodeURIComponent(r.moduleId)}`} className="text-sm font-semibold text-amber-400 underline-offset-4 hover:underline">
                    Review now<span className="sr-only">: {r.moduleTitle || titles.get(r.moduleId) || r.moduleId}</span>
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
