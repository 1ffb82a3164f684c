import type { Benchmarks } from '@/api/analytics'
import { benchmarkReference, type Period, type PeriodMetrics } from '@/content/analytics'
import { periodDays } from './metrics'

/** Reference figures to hold the learner's against; null where there is none. */
export interface ReferenceFigures {
  hoursPerWeek: number | null
  averageSafety: number | null
  passRate: number | null
  modulesPerMonth: number | null
}

/** Where the Benchmarks tab's reference column comes from. */
export type ReferenceSource =
  /** Outside an organisation there is no cohort to compare with: illustrative figures, labelled as such. */
  | { kind: 'sample'; figures: ReferenceFigures }
  /** The organisation's learners with a session in the period (GET /api/analytics/benchmarks). */
  | { kind: 'organisation'; figures: ReferenceFigures; learners: number }
  | { kind: 'loading' }
  | { kind: 'failed' }

const none: ReferenceFigures = { hoursPerWeek: null, averageSafety: null, passRate: null, modulesPerMonth: null }

/**
 * Chooses the reference: an organisation member's is their organisation's
 * real figures, everyone else's the sample. An organisation without a
 * learner in the period has no figures at all: the server's 0 hours and 0
 * modules are then a mean over nobody, so they show as no data too.
 */
export function referenceSource(inOrganisation: boolean, query: { data?: Benchmarks; isError: boolean }): ReferenceSource {
  if (!inOrganisation) return { kind: 'sample', figures: benchmarkReference }
  if (query.data) {
    const b = query.data
    const figures = b.learners === 0 ? none : { hoursPerWeek: b.hoursPerWeek, averageSafety: b.averageSafety, passRate: b.passRate, modulesPerMonth: b.modulesPerMonth }
    return { kind: 'organisation', figures, learners: b.learners }
  }
  return query.isError ? { kind: 'failed' } : { kind: 'loading' }
}

/** One line of the comparison. */
export interface BenchmarkRow {
  metric: string
  you: number | null
  reference: number | null
}

const round1 = (n: number) => Math.round(n * 10) / 10

/**
 * The learner's figures of the period beside the reference's, each defined
 * as the server defines the organisation's (portal.Benchmarks): hours per
 * week over every session, safety and pass rate over ended sessions,
 * distinct modules passed per 30 days.
 */
export function benchmarkRows(metrics: PeriodMetrics, period: Period, reference: ReferenceFigures | null): BenchmarkRow[] {
  const r = reference ?? none
  return [
    { metric: 'Hours / week', you: round1(metrics.hours / (periodDays[period] / 7)), reference: r.hoursPerWeek },
    { metric: 'Safety %', you: metrics.averageSafety, reference: r.averageSafety },
    { metric: 'Pass rate %', you: metrics.passRate, reference: r.passRate },
    { metric: 'Modules / month', you: round1(metrics.modulesCompleted / (periodDays[period] / 30)), reference: r.modulesPerMonth },
  ]
}

/** A figure of the table: the number, or "no data". */
export function figureText(n: number | null): string {
  return n === null ? 'no data' : String(n)
}
