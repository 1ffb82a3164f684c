import { Link } from 'wouter'
import { Award, CheckCircle2, Undo2 } from 'lucide-react'
import { useCompetencies, type StoredCertificate } from '@/api/certificates'
import { Badge } from '@/components/ui/badge'
import { cn } from '@/lib/utils'
import { historyEvents, type HistoryEvent } from '../lib/competencies'
import { formatDate, formatDateTime } from '../lib/format'
import { certificateHref } from './competencies-panel'
import { LoadError, Loading, linkClass } from './shared'

/** The learner's certificates, then every sign-off and revocation, newest first: the record an audit asks for. */
export function CompetencyHistory({ userId }: { userId: string }) {
  const competencies = useCompetencies(userId)
  if (competencies.isPending) return <Loading what="the history" />
  if (competencies.isError) return <LoadError error={competencies.error} what="the history" noun="learner" />
  const { certificates, history, modules } = competencies.data
  const titles = new Map(modules.map((m) => [m.moduleId, m.title]))
  const events = historyEvents(history)

  return (
    <div className="space-y-10">
      <section aria-labelledby="certificates-heading">
        <h3 id="certificates-heading" className="mb-3 text-lg font-semibold text-white">
          Certificates
        </h3>
        {certificates.length === 0 ? (
          <p className="text-slate-300">No certificates issued yet.</p>
        ) : (
          <ul className="space-y-2" aria-labelledby="certificates-heading">
            {certificates.map((c) => (
              <CertificateItem key={c.id} certificate={c} />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="sign-offs-heading">
        <h3 id="sign-offs-heading" className="mb-3 text-lg font-semibold text-white">
          Sign-offs and revocations
        </h3>
        {events.length === 0 ? (
          <p className="text-slate-300">Nothing signed off yet.</p>
        ) : (
          <ol className="space-y-2" aria-labelledby="sign-offs-heading" data-testid="sign-off-history">
            {events.map((e) => (
              <EventItem key={`${e.record.id}-${e.kind}`} event={e} moduleTitle={titles.get(e.record.moduleId) ?? e.record.moduleId} userId={userId} />
            ))}
          </ol>
        )}
      </section>
    </div>
  )
}

function CertificateItem({ certificate: c }: { certificate: StoredCertificate }) {
  const revoked = c.revokedAt !== null
  return (
    <li className={cn('rounded-lg border px-4 py-3', revoked ? 'border-white/10 bg-slate-900/50' : 'border-emerald-500/40 bg-emerald-500/5')} data-certificate={c.id}>
      <p className="flex flex-wrap items-center gap-2 font-semibold text-white">
        <Award className={cn('h-4 w-4 shrink-0', revoked ? 'text-slate-400' : 'text-emerald-300')} aria-hidden="true" />
        {c.certificate.programme}
        <Badge variant="outline" className={revoked ? 'border-red-400/50 text-red-200' : 'border-emerald-400/60 text-emerald-200'}>
          {revoked ? 'Revoked' : 'Valid'}
        </Badge>
      </p>
      <p className="mt-1 text-sm text-slate-300">
        <Link href={certificateHref(c)} className={cn(linkClass, 'font-mono')}>
          {c.certificate.code}
        </Link>{' '}
        · issued <time dateTime={c.certificate.issuedAt}>{formatDate(c.certificate.issuedAt)}</time>, signed by {c.certificate.signedBy}
      </p>
      {revoked && c.revokedAt && (
        <p className="mt-1 break-words text-sm text-slate-300">
          Revoked <time dateTime={c.revokedAt}>{formatDate(c.revokedAt)}</time>
          {c.revokedReason && <>: {c.revokedReason}</>}
        </p>
      )}
    </li>
  )
}

function EventItem({ event: { kind, at, record: r }, moduleTitle, userId }: { event: HistoryEvent; moduleTitle: string; userId: string }) {
  const signed = kind === 'signed'
  const Icon = signed ? CheckCircle2 : Undo2
  const who = signed ? r.signedBy.name : (r.revokedBy?.name ?? 'Unknown')
  const note = signed ? r.note : r.revokeNote
  return (
    <li className="flex gap-3 rounded-lg border border-white/10 bg-slate-900/50 px-4 py-3" data-event={kind}>
      <Icon className={cn('mt-0.5 h-5 w-5 shrink-0', signed ? 'text-emerald-400' : 'text-amber-300')} aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="text-sm text-slate-300">
          <span className={cn('font-semibold', signed ? 'text-emerald-200' : 'text-amber-200')}>{signed ? 'Signed off' : 'Revoked'}</span> by {who} ·{' '}
          <time dateTime={at}>{formatDateTime(at)}</time>
          {signed && r.practical && <span className="ml-1.5 rounded bg-sky-500/15 px-1.5 py-0.5 text-xs font-semibold text-sky-200">Checked in practice</span>}
        </p>
        <p className="mt-1 text-slate-100">{r.objective}</p>
        <p className="text-xs text-slate-400">{moduleTitle}</p>
        {note && (
          <p className="mt-1 break-words text-sm text-slate-200">
            {signed ? 'Note' : 'Reason'}: {note}
          </p>
        )}
        {signed && r.evidenceSessionId && (
          <p className="mt-1 text-xs">
            <Link href={`/portal/learners/${encodeURIComponent(userId)}/sessions/${encodeURIComponent(r.evidenceSessionId)}`} className={linkClass}>
              Evidence: the session review<span className="sr-only"> for this sign-off</span>
            </Link>
          </p>
        )}
      </div>
    </li>
  )
}
