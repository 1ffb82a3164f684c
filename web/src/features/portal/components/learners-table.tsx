import { useId } from 'react'
import { Link } from 'wouter'
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react'
import type { Figures, LearnerSortKey, LearnersParams } from '@/api/portal'
import { cn } from '@/lib/utils'
import { formatCount, formatDate, formatDuration, formatScore } from '../lib/format'
import { ScrollTable } from './shared'

interface Column {
  key: LearnerSortKey
  label: string
  /** Figures sit right-aligned so their digits line up. */
  numeric: boolean
  /** A figure above zero here asks for the instructor's attention. */
  attention?: boolean
}

export const learnerColumns: readonly Column[] = [
  { key: 'displayName', label: 'Learner', numeric: false },
  { key: 'sessions', label: 'Sessions', numeric: true },
  { key: 'timeSeconds', label: 'Time', numeric: true },
  { key: 'lastActive', label: 'Last active', numeric: false },
  { key: 'modulesCompleted', label: 'Modules completed', numeric: true },
  { key: 'averageSafetyScore', label: 'Avg safety score', numeric: true },
  { key: 'alerts', label: 'Alerts', numeric: true, attention: true },
  { key: 'refreshersDue', label: 'Refreshers due', numeric: true, attention: true },
  { key: 'unverifiedSessions', label: 'Unverified', numeric: true, attention: true },
]

const directionWords = { asc: 'ascending', desc: 'descending' } as const

/**
 * A cohort's learners, one row each, every column sortable by the server.
 * Each header is a button; the sorted column's header cell carries
 * aria-sort (only that one, as the ARIA practices advise), and an arrow
 * shows the direction to sighted users.
 */
export function LearnersTable({
  learners,
  params,
  onSort,
  caption,
  busy,
}: {
  learners: Figures[]
  params: LearnersParams
  onSort: (key: LearnerSortKey) => void
  caption: string
  busy: boolean
}) {
  const captionId = useId()
  return (
    <ScrollTable labelledBy={captionId}>
      <table className="w-full min-w-[60rem] text-left text-sm" aria-busy={busy}>
        <caption id={captionId} className="sr-only">
          {caption}
        </caption>
        <thead className="bg-slate-800/80 text-xs text-slate-200">
          <tr>
            {learnerColumns.map((col) => {
              const sorted = params.sort === col.key
              const Arrow = !sorted ? ArrowUpDown : params.dir === 'asc' ? ArrowUp : ArrowDown
              // The arrow stays with the label's last word, so a wrapped label does not leave it alone on a line.
              const words = col.label.split(' ')
              const last = words.pop()
              return (
                <th key={col.key} scope="col" aria-sort={sorted ? directionWords[params.dir] : undefined} className={cn('p-1 align-bottom font-semibold', col.numeric ? 'text-right' : 'text-left')}>
                  <button
                    type="button"
                    onClick={() => onSort(col.key)}
                    className={cn(
                      'rounded px-2 py-1.5 uppercase tracking-wide hover:bg-white/10 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400',
                      col.numeric ? 'text-right' : 'text-left',
                      sorted && 'text-amber-300',
                    )}
                  >
                    {words.length > 0 && `${words.join(' ')} `}
                    <span className="whitespace-nowrap">
                      {last}
                      <Arrow className={cn('ml-1 inline h-3.5 w-3.5 align-[-0.15em]', !sorted && 'opacity-50')} aria-hidden="true" />
                    </span>
                  </button>
                </th>
              )
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-white/10">
          {learners.map((l) => (
            <LearnerRow key={l.id} learner={l} />
          ))}
        </tbody>
      </table>
    </ScrollTable>
  )
}

function Attention({ value }: { value: number }) {
  return <span className={cn('tabular-nums', value > 0 ? 'rounded bg-amber-500/15 px-1.5 py-0.5 font-semibold text-amber-200' : 'text-slate-300')}>{formatCount(value)}</span>
}

function LearnerRow({ learner: l }: { learner: Figures }) {
  const cell = 'px-3 py-2.5 tabular-nums'
  return (
    <tr data-learner={l.email} className="hover:bg-white/[0.03]">
      <th scope="row" className="px-3 py-2.5 font-normal">
        <Link href={`/portal/learners/${encodeURIComponent(l.id)}`} className="font-semibold text-amber-400 underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400">
          {l.displayName || l.email}
        </Link>
        <span className="block whitespace-nowrap text-xs text-slate-300">{l.email}</span>
      </th>
      <td className={cn(cell, 'text-right text-white')}>{formatCount(l.sessions)}</td>
      <td className={cn(cell, 'whitespace-nowrap text-right text-slate-200')}>{formatDuration(l.timeSeconds)}</td>
      <td className="whitespace-nowrap px-3 py-2.5 text-slate-200">{l.lastActive ? <time dateTime={l.lastActive}>{formatDate(l.lastActive)}</time> : <span className="text-slate-400">Never</span>}</td>
      <td className={cn(cell, 'text-right text-white')}>{formatCount(l.modulesCompleted)}</td>
      <td className={cn(cell, 'text-right text-white')}>{l.averageSafetyScore === null ? <span className="text-slate-400">No score</span> : formatScore(l.averageSafetyScore)}</td>
      <td className={cn(cell, 'text-right')}>
        <Attention value={l.alerts} />
      </td>
      <td className={cn(cell, 'text-right')}>
        <Attention value={l.refreshersDue} />
      </td>
      <td className={cn(cell, 'text-right')}>
        <Attention value={l.unverifiedSessions} />
      </td>
    </tr>
  )
}
