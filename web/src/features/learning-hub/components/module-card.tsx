import { Award, CheckCircle2, Clock, Lock, PlayCircle, Circle } from 'lucide-react'
import { Link } from 'wouter'
import { Badge } from '@/components/ui/badge'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Progress } from '@/components/ui/progress'
import type { HubModule } from '@/content/learning-hub'
import { cn } from '@/lib/utils'
import { displayState, displayStateLabels, type DisplayState } from '../lib/progress'

const stateStyle: Record<DisplayState, { icon: typeof Lock; className: string }> = {
  completed: { icon: CheckCircle2, className: 'text-emerald-400' },
  'in-progress': { icon: PlayCircle, className: 'text-amber-400' },
  'not-started': { icon: Circle, className: 'text-slate-300' },
  locked: { icon: Lock, className: 'text-slate-400' },
}

/** One module card in one of the four display states. */
export function ModuleCard({ module: m, sample }: { module: HubModule; sample: boolean }) {
  const state = displayState(m)
  const { icon: Icon, className } = stateStyle[state]
  return (
    <Card className={cn('flex h-full flex-col', state === 'locked' && 'opacity-80')} data-state={state} data-testid="hub-module">
      <CardHeader className="pb-3">
        <div className="flex items-center justify-between gap-2">
          <Badge variant="outline" className="capitalize">
            {m.category}
          </Badge>
          <span className={cn('flex items-center gap-1 text-xs font-semibold', className)}>
            <Icon className="h-4 w-4" aria-hidden="true" />
            {displayStateLabels[state]}
          </span>
        </div>
        <CardTitle as="h3" className="text-base">
          {m.title}
        </CardTitle>
        <p className="flex items-center gap-3 text-xs text-slate-300">
          <span className="flex items-center gap-1">
            <Clock className="h-3.5 w-3.5" aria-hidden="true" />
            {m.duration} min
          </span>
          <span className="capitalize">{m.difficulty}</span>
          {m.badgeEarned ? (
            <span className="flex items-center gap-1 text-amber-400">
              <Award className="h-3.5 w-3.5" aria-hidden="true" />
              Badge earned
            </span>
          ) : null}
        </p>
      </CardHeader>
      <CardContent className="mt-auto space-y-3">
        {m.skills.length ? (
          <ul className="flex flex-wrap gap-1" aria-label="Skills" data-detail="secondary">
            {m.skills.map((s) => (
              <li key={s} className="rounded bg-slate-800 px-2 py-0.5 text-xs text-slate-200">
                {s}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="flex items-center gap-2">
          <Progress value={m.progress} aria-label={`${m.title} progress`} />
          <span className="w-10 text-right text-xs text-slate-300">{m.progress}%</span>
        </div>
        {state === 'locked' ? (
          <p className="text-xs text-slate-300">Finish the prerequisites to unlock.</p>
        ) : sample ? null : (
          <Link href={`/xr-training?module=${encodeURIComponent(m.id)}`} className="text-sm font-semibold text-amber-400 underline-offset-4 hover:underline">
            {state === 'completed' ? 'Practise again' : state === 'in-progress' ? 'Continue' : 'Start'}
            <span className="sr-only">: {m.title}</span>
          </Link>
        )}
      </CardContent>
    </Card>
  )
}
