import { ShieldAlert, ShieldCheck } from 'lucide-react'
import { cn } from '@/lib/utils'

export interface SessionVerificationProps {
  /** The record's verified flag; null or undefined (a running session, an older server) shows nothing. */
  verified?: boolean | null
  /** The server's reasons, in the learner's words. */
  issues?: string[] | null
  /** Compact: one line for a history row; otherwise the full note of the completion message. */
  compact?: boolean
  className?: string
}

/** What an unverified session does not count for (internal/training Session.Verified). */
export const UNVERIFIED_CONSEQUENCE = 'It counts for no certification and no completed module.'

/**
 * Whether the server could verify an ended session and, when it could not,
 * why (internal/training/verify.go): the learner sees the reasons the
 * score was not accepted, in the words the server gives.
 */
export function SessionVerification({ verified, issues, compact, className }: SessionVerificationProps) {
  if (verified === true) {
    return (
      <span className={cn('inline-flex items-center gap-1 text-emerald-200', className)}>
        <ShieldCheck className="size-4" aria-hidden="true" />
        Verified
      </span>
    )
  }
  if (verified !== false || !issues || issues.length === 0) return null
  return (
    <div className={cn('text-amber-100', compact ? 'text-xs' : 'text-sm', className)} data-testid="session-unverified">
      <p className="flex items-center gap-1 font-semibold">
        <ShieldAlert className="size-4 shrink-0" aria-hidden="true" />
        Not verified.{compact ? null : ` ${UNVERIFIED_CONSEQUENCE}`}
      </p>
      <ul className={cn('mt-1 list-disc space-y-1 pl-5', compact && 'text-amber-100/90')}>
        {issues.map((issue) => (
          <li key={issue}>{issue}</li>
        ))}
      </ul>
    </div>
  )
}
