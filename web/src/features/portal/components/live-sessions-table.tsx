import { useId } from 'react'
import { CheckCircle2, Circle, Eye, SkipForward } from 'lucide-react'
import type { LiveSafetyCheck, PortalLiveSession } from '@/api/portal'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'
import { formatCount } from '../lib/format'
import { checkStatusLabels, formatAgo, formatWhen, liveChecksSummary, stepLabel } from '../lib/live'
import { modeLabel } from '../lib/session'
import { ScrollTable } from './shared'

const columns = ['Learner', 'Module', 'Mode', 'Current step', 'Safety checks so far', 'Activity']

/**
 * The organisation's running sessions, most recently active first. The
 * learner's cell holds the Observe button. On a phone (below Tailwind's sm)
 * each row stacks as a card with its cells named, so an instructor walking
 * the shop floor reads the current step without scrolling sideways; the
 * table and its header cells stay for screen readers.
 */
export function LiveSessionsTable({
  sessions,
  observedId,
  nowMs,
  onObserve,
}: {
  sessions: PortalLiveSession[]
  observedId: string | null
  nowMs: number
  onObserve: (session: PortalLiveSession, button: HTMLButtonElement) => void
}) {
  const captionId = useId()
  return (
    <ScrollTable labelledBy={captionId}>
      {/* On a phone each row stacks as a card, every cell labelled, instead of scrolling sideways. */}
      <table className="w-full text-left text-sm max-sm:block sm:min-w-[48rem]">
        <caption id={captionId} className="sr-only">
          Running sessions, most recently active first
        </caption>
        <thead className="bg-slate-800/80 text-xs uppercase tracking-wide text-slate-200 max-sm:sr-only">
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col" className="px-3 py-2.5 font-semibold">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-white/10 max-sm:block">
          {sessions.map((s) => (
            <LiveSessionRow key={s.sessionId} session={s} observed={s.sessionId === observedId} nowMs={nowMs} onObserve={onObserve} />
          ))}
        </tbody>
      </table>
    </ScrollTable>
  )
}

function LiveSessionRow({
  session: s,
  observed,
  nowMs,
  onObserve,
}: {
  session: PortalLiveSession
  observed: boolean
  nowMs: number
  onObserve: (session: PortalLiveSession, button: HTMLButtonElement) => void
}) {
  return (
    <tr
      data-session={s.sessionId}
      className={cn('align-top max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-4 max-sm:gap-y-3 max-sm:p-3', observed ? 'bg-amber-500/10' : 'hover:bg-white/[0.03]')}
      aria-current={observed ? 'true' : undefined}
    >
      <th scope="row" className={cn(cell, 'min-w-[9rem] font-normal max-sm:col-span-2')}>
        <span className="block font-semibold text-white">{s.learnerName || 'Unknown learner'}</span>
        <Button
          size="sm"
          variant={observed ? 'secondary' : 'outline'}
          className="mt-2"
          // The module too: one learner can have several sessions running.
          aria-label={`${observed ? 'Observing' : 'Observe'} ${s.learnerName || 'this learner'} in ${s.moduleTitle || s.moduleId}`}
          onClick={(e) => onObserve(s, e.currentTarget)}
        >
          <Eye aria-hidden="true" />
          {observed ? 'Observing' : 'Observe'}
        </Button>
      </th>
      <td className={cn(cell, 'min-w-[9rem] text-slate-200 max-sm:col-span-2')}>
        <PhoneLabel>Module</PhoneLabel>
        {s.moduleTitle || s.moduleId}
      </td>
      <td className={cn(cell, 'text-slate-200')}>
        <PhoneLabel>Mode</PhoneLabel>
        {modeLabel(s.sessionType)}
      </td>
      <td className={cn(cell, 'min-w-[12rem] max-sm:order-last max-sm:col-span-2')}>
        <PhoneLabel>Current step</PhoneLabel>
        <span className="block text-white" data-testid="live-step">
          {stepLabel(s)}
        </span>
        <span className="mt-1 block text-xs text-slate-300">
          {formatCount(s.stepsDone)} of {formatCount(s.stepsTotal)} steps done · {formatCount(s.interactions)} {s.interactions === 1 ? 'interaction' : 'interactions'}
        </span>
      </td>
      <td className={cn(cell, 'min-w-[9rem] max-sm:order-last max-sm:col-span-2')}>
        <PhoneLabel>Safety checks so far</PhoneLabel>
        <SafetyChecks checks={s.safetyChecks} />
      </td>
      <td className={cn(cell, 'min-w-[8rem] text-slate-200')}>
        <PhoneLabel>Activity</PhoneLabel>
        <span className="block">
          Started <time dateTime={s.startedAt}>{formatWhen(s.startedAt, nowMs)}</time>
        </span>
        <span className="mt-1 block text-xs text-slate-300">
          Last activity <time dateTime={s.updatedAt}>{formatAgo(s.updatedAt, nowMs)}</time>
        </span>
      </td>
    </tr>
  )
}

/** A cell's padding, which a phone's stacked row gives to the row instead. */
const cell = 'px-3 py-2.5 max-sm:block max-sm:min-w-0 max-sm:p-0'

/** A cell's column name, shown on a phone where the header row is not; the header still names it for screen readers. */
function PhoneLabel({ children }: { children: string }) {
  return (
    <span aria-hidden="true" className="mb-0.5 block text-xs font-semibold uppercase tracking-wide text-slate-400 sm:hidden">
      {children}
    </span>
  )
}

const checkIcons = { passed: CheckCircle2, skipped: SkipForward, pending: Circle } as const
const checkIconClass = { passed: 'text-emerald-300', skipped: 'text-amber-300', pending: 'text-slate-400' } as const

/** The summary, opening onto each check and its status in words (the icon only repeats it). */
export function SafetyChecks({ checks }: { checks: LiveSafetyCheck[] }) {
  const summary = liveChecksSummary(checks)
  if (checks.length === 0) return <span className="text-slate-300">{summary}</span>
  return (
    <details className="group">
      <summary className="cursor-pointer rounded-sm text-slate-100 underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400" data-testid="live-checks">
        {summary}
      </summary>
      <ul className="mt-2 space-y-1 text-xs">
        {checks.map((c) => {
          const Icon = checkIcons[c.status]
          return (
            <li key={c.id} className="flex items-start gap-1.5 text-slate-200">
              <Icon className={cn('mt-0.5 h-3.5 w-3.5 shrink-0', checkIconClass[c.status])} aria-hidden="true" />
              <span>
                <span className="font-semibold">{checkStatusLabels[c.status]}:</span> {c.description}
              </span>
            </li>
          )
        })}
      </ul>
    </details>
  )
}
