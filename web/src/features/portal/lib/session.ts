import type { Figures } from '@/api/portal'
import type { SafetyCheckResult, SessionSummary } from '@/api/xr-sessions'
import { formatCount, formatDateTime, formatDuration, formatScore } from './format'

const modeLabels: Record<string, string> = { desktop: 'Desktop', vr: 'VR', ar: 'AR' }

/** The mode a session ran in, as the training center names it. */
export function modeLabel(sessionType: string): string {
  return modeLabels[sessionType] ?? (sessionType || 'Unknown')
}

const browsers: [RegExp, string][] = [
  [/OculusBrowser\/(\d+)/, 'Meta Quest Browser'],
  [/SamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/Edg\/(\d+)/, 'Edge'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/(?:Chrome|CriOS)\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
]
const systems: [RegExp, string][] = [
  [/Quest/, 'Meta Quest'],
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
]

/**
 * The headset or browser a session ran on, as a person names it
 * ("Chrome 156 on Linux"), from the user-agent string the launcher
 * records; the string itself when it names no browser known here.
 */
export function deviceLabel(userAgent: string): string {
  const ua = userAgent.trim()
  if (!ua) return 'Unknown'
  for (const [re, name] of browsers) {
    const version = re.exec(ua)?.[1]
    if (version === undefined) continue
    const system = systems.find(([os]) => os.test(ua))?.[1]
    return `${name} ${version}` + (system ? ` on ${system}` : '')
  }
  return ua
}

/** Whether the server vouches for a session: verified, not (yet) checked while it runs, or unverified with its reasons. */
export function verificationLabel(s: { verified: boolean | null; endedAt: string | null; completionStatus: string }): 'Verified' | 'Unverified' | 'Not ended' | 'Not checked' {
  if (s.verified === true) return 'Verified'
  if (s.endedAt === null || s.completionStatus === 'in_progress') return 'Not ended'
  return s.verified === false ? 'Unverified' : 'Not checked'
}

/** "2 passed, 1 skipped" of a session's safety checks, as the server judged them. */
export function checksSummary(checks: readonly Pick<SafetyCheckResult, 'status'>[]): string {
  if (checks.length === 0) return 'None in this module'
  const passed = checks.filter((c) => c.status === 'passed').length
  return `${passed} passed, ${checks.length - passed} skipped`
}

/** A list row's safety checks: judged only once the session ends, and unknown on an answer that does not carry them. */
export function sessionChecksLabel(s: Pick<SessionSummary, 'safetyChecks' | 'completionStatus' | 'endedAt'>): string {
  if (s.completionStatus === 'in_progress' || s.endedAt === null) return 'Not judged yet'
  if (s.safetyChecks === null) return 'Not available'
  return checksSummary(s.safetyChecks)
}

/** The learner figure cards, in the order the cohort table shows the columns. */
export function figureCards(f: Figures) {
  return [
    { label: 'Sessions', value: formatCount(f.sessions) },
    { label: 'Time', value: formatDuration(f.timeSeconds) },
    { label: 'Last active', value: f.lastActive ? formatDateTime(f.lastActive) : 'Never', long: !!f.lastActive },
    { label: 'Modules completed', value: formatCount(f.modulesCompleted) },
    { label: 'Avg safety score', value: f.averageSafetyScore === null ? 'No score' : formatScore(f.averageSafetyScore) },
    { label: 'Alerts', value: formatCount(f.alerts), attention: f.alerts > 0 },
    { label: 'Refreshers due', value: formatCount(f.refreshersDue), attention: f.refreshersDue > 0 },
    { label: 'Unverified sessions', value: formatCount(f.unverifiedSessions), attention: f.unverifiedSessions > 0 },
  ]
}
