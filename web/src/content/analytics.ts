/**
 * The analytics dashboard's static sample data (spec 001 §2: "Static sample
 * data"; §9: analytics metrics and insights). The spec fixes neither the
 * figures nor the texts; these are shown only for a period in which the
 * learner has no real sessions, and the page labels them as sample data.
 */

export const periods = ['7d', '28d', '90d', '1y'] as const
export type Period = (typeof periods)[number]

export const periodLabels: Record<Period, string> = {
  '7d': 'Last 7 days',
  '28d': 'Last 28 days',
  '90d': 'Last 90 days',
  '1y': 'Last year',
}

/** One point of a time series. */
export interface SeriesPoint {
  label: string
  sessions: number
  minutes: number
  /** Average safety score of the scored sessions, null when none. */
  safety: number | null
}

/** Headline figures of a period. */
export interface PeriodMetrics {
  sessions: number
  hours: number
  averageSafety: number | null
  modulesCompleted: number
  passRate: number | null
}

export const sampleMetrics: Record<Period, PeriodMetrics> = {
  '7d': { sessions: 6, hours: 3.2, averageSafety: 91.5, modulesCompleted: 2, passRate: 83 },
  '28d': { sessions: 21, hours: 11.4, averageSafety: 89.2, modulesCompleted: 6, passRate: 76 },
  '90d': { sessions: 58, hours: 31.7, averageSafety: 87.8, modulesCompleted: 14, passRate: 74 },
  '1y': { sessions: 164, hours: 92.5, averageSafety: 86.1, modulesCompleted: 31, passRate: 71 },
}

function points(labels: string[], sessions: number[], minutes: number[], safety: number[]): SeriesPoint[] {
  return labels.map((label, i) => ({ label, sessions: sessions[i] ?? 0, minutes: minutes[i] ?? 0, safety: safety[i] ?? null }))
}

export const sampleSeries: Record<Period, SeriesPoint[]> = {
  '7d': points(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'], [1, 0, 2, 1, 1, 0, 1], [30, 0, 55, 25, 40, 0, 42], [88, 0, 90, 92, 93, 0, 95]),
  '28d': points(['Week 1', 'Week 2', 'Week 3', 'Week 4'], [4, 5, 6, 6], [130, 160, 190, 204], [86, 88, 90, 92]),
  '90d': points(
    ['W1', 'W2', 'W3', 'W4', 'W5', 'W6', 'W7', 'W8', 'W9', 'W10', 'W11', 'W12', 'W13'],
    [3, 4, 4, 5, 4, 5, 4, 5, 5, 4, 5, 5, 5],
    [95, 130, 125, 160, 140, 150, 135, 170, 160, 140, 165, 165, 167],
    [82, 84, 85, 86, 86, 87, 88, 88, 89, 89, 90, 91, 92],
  ),
  '1y': points(
    ['Dec', 'Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov'],
    [8, 10, 12, 13, 14, 15, 12, 14, 16, 17, 16, 17],
    [260, 330, 400, 430, 480, 510, 400, 470, 540, 560, 540, 630],
    [79, 81, 82, 84, 85, 86, 85, 87, 88, 89, 90, 91],
  ),
}

export const sampleInsights: string[] = [
  'Your safety score has risen 12 points since you started; lockout/tagout steps are now done without prompts.',
  'Sessions after 6 pm score 7 points lower on average: schedule hands-on modules earlier in the day.',
  'Conduit bending takes you 40% longer than its estimate; one extra practice session is recommended before motor controls.',
  'Three modules are due for a refresher this week; reviewing them now keeps recall above 90%.',
]

export const sampleTradeProgress: { trade: string; percent: number }[] = [
  { trade: 'Electrical', percent: 67 },
  { trade: 'Plumbing', percent: 33 },
  { trade: 'HVAC', percent: 20 },
  { trade: 'Welding', percent: 0 },
]

/**
 * Reference figures for the Benchmarks tab. There is no cohort data on this
 * platform yet, so these are illustrative figures and always labelled sample.
 */
export const benchmarkReference = {
  hoursPerWeek: 3,
  averageSafety: 85,
  passRate: 72,
  modulesPerMonth: 4,
}
