import type { RosterOutcome, RosterReport } from '@/api/organisation'

export const outcomeLabels: Record<RosterOutcome, string> = {
  create: 'New account',
  update: 'Updated',
  unchanged: 'Unchanged',
  error: 'Error',
}

/** An example the roster tab shows and the text area starts from. */
export const ROSTER_HEADER = 'email,name,role,cohort'

/**
 * Import is allowed only for the very text that a dry run just checked and
 * found without errors: an edit after the check needs a new check.
 */
export function canImport(report: RosterReport | null, checkedText: string | null, currentText: string): boolean {
  return !!report && report.dryRun && report.counts.error === 0 && report.rows.length > 0 && checkedText === currentText
}

/** The setup links of the accounts an applied import created. */
export function setupLinks(report: RosterReport): { line: number; email: string; name: string; url: string }[] {
  return report.rows.flatMap((r) => (r.outcome === 'create' && r.setupUrl ? [{ line: r.line, email: r.email, name: r.name, url: r.setupUrl }] : []))
}

function csvField(value: string): string {
  // A leading =, +, - or @ would be run as a formula by a spreadsheet opening the file.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** The setup links as CSV (email,name,setupUrl) for an admin to mail out. */
export function setupLinksCsv(links: ReturnType<typeof setupLinks>): string {
  return [['email', 'name', 'setupUrl'], ...links.map((l) => [l.email, l.name, l.url])].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n'
}

/** "3 new accounts, 1 updated, 0 unchanged, 2 errors" */
export function summarizeCounts(counts: RosterReport['counts']): string {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`
  return [
    plural(counts.create, 'new account', 'new accounts'),
    `${counts.update} updated`,
    `${counts.unchanged} unchanged`,
    plural(counts.error, 'error', 'errors'),
  ].join(', ')
}
