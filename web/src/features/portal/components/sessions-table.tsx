import { useId } from 'react'
import { Link } from 'wouter'
import { outcomeLabel, type SessionSummary } from '@/api/xr-sessions'
import { cn } from '@/lib/utils'
import { formatDateTime, formatDuration, formatScore } from '../lib/format'
import { modeLabel, sessionChecksLabel, verificationLabel } from '../lib/session'
import { ScrollTable } from './shared'

const columns = ['Module', 'Mode', 'Date', 'Duration', 'Safety score', 'Outcome', 'Verification', 'Safety checks']

/** A learner's sessions, newest first, each leading to its review. */
export function SessionsTable({ userId, sessions, caption, busy }: { userId: string; sessions: SessionSummary[]; caption: string; busy: boolean }) {
  const captionId = useId()
  return (
    <ScrollTable labelledBy={captionId}>
      <table className="w-full min-w-[62rem] text-left text-sm" aria-busy={busy}>
        <caption id={captionId} className="sr-only">
          {caption}
        </caption>
        <thead className="bg-slate-800/80 text-xs uppercase tracking-wide text-slate-200">
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col" className={cn('px-3 py-2.5 font-semibold', (c === 'Duration' || c === 'Safety score') && 'text-right')}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-white/10">
          {sessions.map((s) => (
            <SessionRow key={s.id} userId={userId} session={s} />
          ))}
        </tbody>
      </table>
    </ScrollTable>
  )
}

const outcomeStyle: Record<string, string> = {
  Passed: 'bg-emerald-500/15 text-emerald-200',
  Failed: 'bg-red-500/20 text-red-100',
  'In progress': 'bg-sky-500/15 text-sky-200',
}

function SessionRow({ userId, session: s }: { userId: string; session: SessionSummary }) {
  const outcome = outcomeLabel(s.completionStatus, s.outcome)
  const verification = verificationLabel(s)
  // A pass the server could not verify certifies nothing: it is not shown in a pass's colour.
  const badge = verification === 'Unverified' ? 'bg-slate-500/20 text-slate-200' : (outcomeStyle[outcome] ?? 'bg-slate-500/20 text-slate-200')
  return (
    <tr data-session={s.id} className="align-top hover:bg-white/[0.03]">
      <th scope="row" className="min-w-[14rem] max-w-[20rem] px-3 py-2.5 font-normal">
        <Link
          href={`/portal/learners/${encodeURIComponent(userId)}/sessions/${encodeURIComponent(s.id)}`}
          className="font-semibold text-amber-400 underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
        >
          {s.moduleTitle || s.moduleId || 'Unknown module'}
        </Link>
      </th>
      <td className="px-3 py-2.5 text-slate-200">{modeLabel(s.sessionType)}</td>
      <td className="whitespace-nowrap px-3 py-2.5 text-slate-200">{s.startedAt ? <time dateTime={s.startedAt}>{formatDateTime(s.startedAt)}</time> : 'Unknown'}</td>
      <td className="whitespace-nowrap px-3 py-2.5 text-right tabular-nums text-slate-200">{formatDuration(s.duration)}</td>
      <td className="px-3 py-2.5 text-right tabular-nums text-white">{s.safetyScore === null ? <span className="text-slate-400">No score</span> : formatScore(s.safetyScore)}</td>
      <td className="px-3 py-2.5">
        <span className={cn('inline-block whitespace-nowrap rounded px-2 py-0.5 text-xs font-semibold', badge)}>{outcome}</span>
      </td>
      <td className="min-w-[14rem] px-3 py-2.5">
        <span className={cn('font-semibold', verification === 'Verified' ? 'text-emerald-300' : verification === 'Unverified' ? 'text-amber-300' : 'text-slate-300')}>{verification}</span>
        {verification === 'Unverified' && s.verificationIssues.length > 0 && (
          <ul className="mt-1 list-disc space-y-0.5 pl-4 text-xs text-slate-300">
            {s.verificationIssues.map((issue) => (
              <li key={issue}>{issue}</li>
            ))}
          </ul>
        )}
      </td>
      <td className="whitespace-nowrap px-3 py-2.5 text-slate-200">{sessionChecksLabel(s)}</td>
    </tr>
  )
}
