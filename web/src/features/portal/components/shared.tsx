import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { ChevronRight, Download } from 'lucide-react'
import { ZodError } from 'zod'
import { buttonVariants } from '@/components/ui/button'
import { ApiError } from '@/lib/api'
import { formErrors } from '@/lib/form-errors'
import { cn } from '@/lib/utils'

export const linkClass = 'font-semibold text-amber-400 underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 rounded-sm'

export interface Crumb {
  label: string
  href: string
}

/** The trail back up the portal: Portal › cohort › learner. The current page is the h1 below it, not a crumb. */
export function Breadcrumbs({ trail }: { trail: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-3 text-sm text-slate-300">
      <ol className="flex flex-wrap items-center gap-1">
        {trail.map((c, i) => (
          <li key={c.href} className="flex items-center gap-1">
            {i > 0 && <ChevronRight className="h-3.5 w-3.5 text-slate-400" aria-hidden="true" />}
            <Link href={c.href} className="rounded-sm text-slate-200 underline-offset-4 hover:text-white hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400">
              {c.label}
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  )
}

/** A portal page's frame: crumbs, its one h1, a line under it, and actions (the CSV link) on the right. */
export function PortalHeader({ trail, title, subtitle, actions }: { trail?: Crumb[]; title: ReactNode; subtitle?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="mb-8">
      {trail && trail.length > 0 && <Breadcrumbs trail={trail} />}
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="break-words text-3xl font-bold tracking-tight text-white sm:text-4xl">{title}</h1>
          {subtitle && <div className="mt-2 text-slate-300">{subtitle}</div>}
        </div>
        {actions}
      </div>
    </header>
  )
}

/**
 * A plain download link: the browser fetches the file with the session
 * cookie and saves it under the server's file name, so the page never holds
 * the export in memory.
 */
export function DownloadCsvLink({ href, label = 'Download CSV' }: { href: string; label?: string }) {
  return (
    <a href={href} download className={cn(buttonVariants({ variant: 'outline', size: 'sm' }))}>
      <Download aria-hidden="true" />
      {label}
    </a>
  )
}

/**
 * Why a portal answer failed, in the instructor's terms. what is the thing
 * loaded ("this cohort", "the sessions"); noun names one of it for a 403 or
 * 404 ("cohort").
 */
export function loadErrorMessage(error: unknown, what: string, noun: string): string {
  if (error instanceof ApiError && error.status === 403) return `You cannot see this ${noun}: it is not one of yours.`
  if (error instanceof ApiError && error.status === 404) return `There is no such ${noun} in your organisation.`
  if (error instanceof ZodError) return `Could not read ${what}: the server's answer was not what this page expects. Reload to try again.`
  return `Could not load ${what}. ${formErrors(error, {}).form ?? ''}`.trim()
}

export function LoadError({ error, what, noun, children }: { error: unknown; what: string; noun: string; children?: ReactNode }) {
  return (
    <div role="alert" className="rounded-md border border-red-500/40 bg-red-500/10 px-4 py-3 text-sm text-red-200">
      <p>{loadErrorMessage(error, what, noun)}</p>
      {children}
    </div>
  )
}

export function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="text-slate-300">
      Loading {what}…
    </p>
  )
}

/** A figure of a learner's: its name, the server's value formatted, and an optional note. */
export interface Figure {
  label: string
  value: string
  /** Draws the eye to a figure that asks for the instructor's attention (alerts, unverified sessions). */
  attention?: boolean
  /**
   * A long value (a date and time, a browser's user-agent string) in smaller
   * type, so it does not break over three lines of a narrow card. Any value
   * wraps inside its card, within a word if it must.
   */
  long?: boolean
  /** Small print under the value: what it was made from, say. */
  note?: string
}

/** The learner's figures as a list of terms and values, laid out as cards. */
export function FigureCards({ figures, label }: { figures: Figure[]; label: string }) {
  return (
    <dl aria-label={label} className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {figures.map((f) => (
        <div key={f.label} className={cn('rounded-xl border bg-slate-900/70 p-4', f.attention ? 'border-amber-500/50' : 'border-white/10')}>
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-300">{f.label}</dt>
          <dd className={cn('mt-1 font-bold tabular-nums [overflow-wrap:anywhere]', f.long ? 'text-base sm:text-lg' : 'text-xl sm:text-2xl', f.attention ? 'text-amber-300' : 'text-white')}>
            {f.value}
            {f.note ? <span className="mt-1 block text-xs font-normal text-slate-400">{f.note}</span> : null}
          </dd>
        </div>
      ))}
    </dl>
  )
}

/** A table that scrolls sideways inside its frame on a narrow screen; focusable so the keyboard can scroll it too. */
export function ScrollTable({ labelledBy, children, className }: { labelledBy: string; children: ReactNode; className?: string }) {
  return (
    <div role="region" aria-labelledby={labelledBy} tabIndex={0} className={cn('overflow-x-auto rounded-lg border border-white/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400', className)} data-testid="table-scroller">
      {children}
    </div>
  )
}
