/** The four dashboard figures, each a number (spec 000 §3, Dashboard statistics). */
export interface DashboardStats {
  activeLearners: number
  totalCertifications: number
  totalXrSessions: number
  averageSafetyScore: number
}

const keys = ['activeLearners', 'totalCertifications', 'totalXrSessions', 'averageSafetyScore'] as const

/**
 * Reads the figures out of whatever the server answered: a value that is
 * missing or not a finite number counts as 0 (spec 000 §5).
 */
export function normalizeDashboardStats(raw: unknown): DashboardStats {
  const source = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {}
  const out = {} as DashboardStats
  for (const key of keys) {
    const value = source[key]
    out[key] = typeof value === 'number' && Number.isFinite(value) ? value : 0
  }
  return out
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
