// The figures, each a number with missing values as 0, are read by src/api/analytics.
import type { DashboardStats, StatsScope } from '@/api/analytics'

export type { DashboardStats }

/** The tiles' figures: every field of the answer but its scope. */
export type DashboardFigure = Exclude<keyof DashboardStats, 'scope'>

/**
 * Whose figures the tiles show, as the group's label and the line under the
 * heading: the caller's organisation's (named when the identity is known),
 * or the whole platform's. Nothing while the answer is not in.
 */
export function statsScopeText(scope: StatsScope | undefined, organisation: string | undefined): { label: string; description: string } {
  switch (scope) {
    case 'organisation':
      return {
        label: organisation ? `${organisation} · your organisation` : 'Your organisation',
        description: "Your organisation's figures: its learners' XR sessions and the certificates they hold, updated as they train.",
      }
    case 'platform':
      return { label: 'Across the platform', description: 'Platform-wide figures from every XR session, updated as learners train.' }
    default:
      return { label: '', description: 'Figures from XR sessions, updated as learners train.' }
  }
}

const counts = new Intl.NumberFormat('en-US')

/** A count tile's text: 1234 → "1,234". */
export function formatCount(n: number): string {
  return counts.format(Math.round(n))
}

/** The safety tile's text: always one decimal, 87 → "87.0%". */
export function formatSafetyScore(percent: number): string {
  return `${percent.toFixed(1)}%`
}
