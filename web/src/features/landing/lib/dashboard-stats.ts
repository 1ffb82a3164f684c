// The figures, each a number with missing values as 0, are read by src/api/analytics.
export type { DashboardStats } from '@/api/analytics'

const counts = new Intl.NumberFormat('en-US')

/** A count tile's text: 1234 → "1,234". */
export function formatCount(n: number): string {
  return counts.format(Math.round(n))
}

/** The safety tile's text: always one decimal, 87 → "87.0%". */
export function formatSafetyScore(percent: number): string {
  return `${percent.toFixed(1)}%`
}
