import { Badge } from '@/components/ui/badge'
import { cn } from '@/lib/utils'
import { alertLabel, alertTone, statusLabel, statusTone, syncLabel, syncTone, type Tone } from '../lib/equipment'

const toneClasses: Record<Tone, string> = {
  good: 'border-emerald-400/40 bg-emerald-500/15 text-emerald-200',
  info: 'border-sky-400/40 bg-sky-500/15 text-sky-200',
  warn: 'border-amber-400/50 bg-amber-500/15 text-amber-200',
  bad: 'border-red-400/50 bg-red-500/20 text-red-200',
  severe: 'border-transparent bg-red-700 text-white',
  muted: 'border-white/20 bg-slate-700/60 text-slate-100',
}

function ToneBadge({ tone, label, kind }: { tone: Tone; label: string; kind: string }) {
  return (
    <Badge variant="outline" className={cn(toneClasses[tone])} data-kind={kind}>
      <span className="sr-only">{kind}: </span>
      {label}
    </Badge>
  )
}

/** Equipment status (seed 001 §4); values outside the list read 'Unknown'. */
export function StatusBadge({ status }: { status: unknown }) {
  return <ToneBadge kind="Status" tone={statusTone(status)} label={statusLabel(status)} />
}

/** Alert level (seed 001 §4). */
export function AlertBadge({ level }: { level: unknown }) {
  return <ToneBadge kind="Alert level" tone={alertTone(level)} label={alertLabel(level)} />
}

/** Sync status (seed 001 §4). */
export function SyncBadge({ status }: { status: unknown }) {
  return <ToneBadge kind="Sync" tone={syncTone(status)} label={syncLabel(status)} />
}
