import type { Period, PeriodMetrics, SeriesPoint } from '@/content/analytics'

import type { LearningSession as SessionRecord } from '@/api/xr-sessions'

export type { SessionRecord }

/** Days each period covers. */
export const periodDays: Record<Period, number> = { '7d': 7, '28d': 28, '90d': 90, '1y': 365 }

const DAY = 86_400_000

/** The sessions started within the period ending at now (inclusive of its first day). */
export function filterByPeriod(sessions: SessionRecord[], period: Period, now: Date): SessionRecord[] {
  const from = now.getTime() - periodDays[period] * DAY
  return sessions.filter((s) => {
    const t = Date.parse(s.startedAt)
    return Number.isFinite(t) && t > from && t <= now.getTime()
  })
}

const round1 = (n: number) => Math.round(n * 10) / 10

/** Headline figures: ended sessions, hours over every session, average safety of scored sessions, distinct passed modules, pass rate of ended sessions. */
export function summarize(sessions: SessionRecord[]): PeriodMetrics {
  const ended = sessions.filter((s) => s.completionStatus === 'completed')
  const scored = ended.filter((s) => s.safetyScore !== null)
  const passed = ended.filter((s) => s.outcome === 'passed')
  return {
    sessions: ended.length,
    hours: round1(sessions.reduce((sum, s) => sum + s.duration, 0) / 3600),
    averageSafety: scored.length ? round1(scored.reduce((sum, s) => sum + (s.safetyScore ?? 0), 0) / scored.length) : null,
    modulesCompleted: new Set(passed.map((s) => s.moduleId)).size,
    passRate: ended.length ? Math.round((passed.length / ended.length) * 100) : null,
  }
}

const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/**
 * The period as a time series: days for 7d, weeks for 28d and 90d, months for
 * 1y, oldest first, ending at now. Buckets are counted back from now in UTC
 * so that the same data gives the same chart anywhere.
 */
export function bucketize(sessions: SessionRecord[], period: Period, now: Date): SeriesPoint[] {
  const inPeriod = filterByPeriod(sessions, period, now)
  type Bucket = { label: string; from: number; to: number }
  const buckets: Bucket[] = []
  const end = now.getTime()
  if (period === '1y') {
    for (let i = 11; i >= 0; i--) {
      const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1)
      const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i + 1, 1)
      buckets.push({ label: months[new Date(start).getUTCMonth()]!, from: start, to: next })
    }
  } else {
    const size = period === '7d' ? 1 : 7
    const count = Math.ceil(periodDays[period] / size)
    for (let i = count - 1; i >= 0; i--) {
      const to = end - i * size * DAY
      const from = to - size * DAY
      const label = period === '7d' ? weekdays[new Date(to - 1).getUTCDay()]! : `Week ${count - i}`
      buckets.push({ label, from, to })
    }
  }
  return buckets.map((b) => {
    const inBucket = inPeriod.filter((s) => {
      const t = Date.parse(s.startedAt)
      return t > b.from && t <= b.to
    })
    const scored = inBucket.filter((s) => s.safetyScore !== null && s.completionStatus === 'completed')
    return {
      label: b.label,
      sessions: inBucket.filter((s) => s.completionStatus === 'completed').length,
      minutes: Math.round(inBucket.reduce((sum, s) => sum + s.duration, 0) / 60),
      safety: scored.length ? round1(scored.reduce((sum, s) => sum + (s.safetyScore ?? 0), 0) / scored.length) : null,
    }
  })
}

/** Level titles, one per level from 1. */
export const levelTitles = ['Newcomer', 'Apprentice', 'Apprentice II', 'Apprentice III', 'Journeyman', 'Senior Journeyman', 'Master']
/** Experience points per level. */
export const XP_PER_LEVEL = 500

/**
 * The learner's level from all their sessions: 100 XP per passed module, 10
 * per ended session, 1 per minute trained.
 */
export function learnerLevel(sessions: SessionRecord[]): { level: number; title: string; xp: number; toNext: number } {
  const s = summarize(sessions)
  const xp = s.modulesCompleted * 100 + s.sessions * 10 + Math.floor(sessions.reduce((sum, r) => sum + r.duration, 0) / 60)
  const level = Math.floor(xp / XP_PER_LEVEL) + 1
  return { level, title: levelTitles[Math.min(level, levelTitles.length) - 1]!, xp, toNext: XP_PER_LEVEL - (xp % XP_PER_LEVEL) }
}

/**
 * Rule-based insights from the period's sessions: what the data shows, each
 * with the figure behind it. No insight is invented when the data is thin.
 */
export function insights(sessions: SessionRecord[], refreshersDue: number): string[] {
  const out: string[] = []
  const ended = sessions.filter((s) => s.completionStatus === 'completed').sort((a, b) => a.startedAt.localeCompare(b.startedAt))
  const scored = ended.filter((s) => s.safetyScore !== null)
  if (scored.length >= 4) {
    const half = Math.floor(scored.length / 2)
    const avg = (xs: SessionRecord[]) => xs.reduce((sum, s) => sum + (s.safetyScore ?? 0), 0) / xs.length
    const first = avg(scored.slice(0, half))
    const last = avg(scored.slice(half))
    const delta = round1(last - first)
    out.push(
      delta >= 0
        ? `Your safety score is improving: your recent sessions average ${round1(last)}%, up ${delta} points on your earlier ones.`
        : `Your safety score has slipped: recent sessions average ${round1(last)}%, ${Math.abs(delta)} points below your earlier ones. Slow down on the safety checks.`,
    )
  }
  const byModule = new Map<string, { title: string; failed: number; total: number }>()
  for (const s of ended) {
    const m = byModule.get(s.moduleId) ?? { title: s.moduleTitle || s.moduleId, failed: 0, total: 0 }
    m.total++
    if (s.outcome === 'failed') m.failed++
    byModule.set(s.moduleId, m)
  }
  const hardest = [...byModule.values()].filter((m) => m.failed > 0).sort((a, b) => b.failed - a.failed)[0]
  if (hardest) {
    out.push(`${hardest.title} is your hardest module so far: ${hardest.failed} of ${hardest.total} attempts did not pass. Review its safety points before the next try.`)
  }
  const types = new Map<string, number>()
  for (const s of ended) types.set(s.sessionType, (types.get(s.sessionType) ?? 0) + 1)
  const topType = [...types.entries()].sort((a, b) => b[1] - a[1])[0]
  if (topType && ended.length >= 2) {
    out.push(`You train mostly in ${topType[0].toUpperCase()} mode (${topType[1]} of ${ended.length} sessions).`)
  }
  if (refreshersDue > 0) {
    out.push(`${refreshersDue} ${refreshersDue === 1 ? 'module is' : 'modules are'} due for a refresher: reviewing now keeps what you learned from fading.`)
  }
  if (out.length === 0 && ended.length > 0) {
    out.push(`You completed ${ended.length} ${ended.length === 1 ? 'session' : 'sessions'} in this period. A few more and trends will show here.`)
  }
  return out
}

/** Completion per trade the learner has trained in: distinct passed modules over the trade's catalog modules. */
export function tradeProgress(
  sessions: SessionRecord[],
  modules: { id: string; tradeId: string }[],
  tradeName: (id: string) => string,
): { trade: string; percent: number }[] {
  const tradeOf = new Map(modules.map((m) => [m.id, m.tradeId]))
  const totals = new Map<string, number>()
  for (const m of modules) totals.set(m.tradeId, (totals.get(m.tradeId) ?? 0) + 1)
  const active = new Set<string>()
  const passed = new Set<string>()
  for (const s of sessions) {
    const t = tradeOf.get(s.moduleId)
    if (!t) continue
    active.add(t)
    if (s.completionStatus === 'completed' && s.outcome === 'passed') passed.add(s.moduleId)
  }
  return [...active].map((t) => {
    const done = [...passed].filter((id) => tradeOf.get(id) === t).length
    return { trade: tradeName(t), percent: Math.round((done / (totals.get(t) ?? 1)) * 100) }
  })
}
