import { useId } from 'react'
import { Download } from 'lucide-react'
import { Button } from '@/components/ui/button'
import type { RosterReport, RosterRow } from '@/api/organisation'
import { cn } from '@/lib/utils'
import { outcomeLabels, setupLinks, setupLinksCsv, summarizeCounts } from '../lib/roster'
import { CopyField } from './copy-field'

const columns = ['Line', 'Outcome', 'Email', 'Name', 'Role', 'Cohort']

const outcomeStyle: Record<RosterRow['outcome'], string> = {
  create: 'bg-emerald-500/15 text-emerald-200',
  update: 'bg-sky-500/15 text-sky-200',
  unchanged: 'bg-slate-500/20 text-slate-200',
  error: 'bg-red-500/20 text-red-100',
}

/**
 * Every row of a roster run with its CSV line number and outcome. Error rows
 * are marked by colour, by an "Error" label and by their message, so none of
 * them relies on colour alone.
 */
export function RosterReportView({ report }: { report: RosterReport }) {
  const captionId = useId()
  const title = report.dryRun ? 'Check result' : report.applied ? 'Import result' : 'Import refused'
  return (
    <div className="space-y-3" data-testid="roster-report">
      <p id={captionId} className="font-semibold text-white">
        {title}: {summarizeCounts(report.counts)}
      </p>
      <div className="overflow-x-auto rounded-lg border border-white/10" role="region" aria-labelledby={captionId} tabIndex={0}>
        <table className="w-full min-w-[44rem] text-left text-sm">
          <caption className="sr-only">
            {title}, one row per person, by the line of the file it is on (blank lines, and rows of empty cells, are skipped): {summarizeCounts(report.counts)}
          </caption>
          <thead className="bg-slate-800/80 text-xs uppercase tracking-wide text-slate-300">
            <tr>
              {columns.map((name) => (
                <th key={name} scope="col" className="px-3 py-2">
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-white/10">
            {report.rows.map((row) => (
              <tr
                key={row.line}
                data-line={row.line}
                data-outcome={row.outcome}
                className={cn(row.outcome === 'error' && 'bg-red-950/60 outline outline-1 -outline-offset-1 outline-red-500/60')}
              >
                <th scope="row" className="px-3 py-2 font-mono font-normal text-slate-200">
                  {row.line}
                </th>
                <td className="min-w-48 px-3 py-2">
                  <span className={cn('inline-block rounded px-2 py-0.5 text-xs font-semibold', outcomeStyle[row.outcome])}>{outcomeLabels[row.outcome]}</span>
                  {row.message && <span className={cn('mt-1 block text-xs', row.outcome === 'error' ? 'text-red-200' : 'text-slate-300')}>{row.message}</span>}
                </td>
                <td className="break-all px-3 py-2 text-white">{row.email}</td>
                <td className="px-3 py-2 text-slate-200">{row.name}</td>
                <td className="px-3 py-2 text-slate-200">{row.role}</td>
                <td className="px-3 py-2 text-slate-200">{row.cohort}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}

/** The setup links of the accounts an import created: each with a copy button, and all as a CSV file. */
export function SetupLinks({ report }: { report: RosterReport }) {
  const links = setupLinks(report)
  if (!report.applied || links.length === 0) return null

  const download = () => {
    const url = URL.createObjectURL(new Blob([setupLinksCsv(links)], { type: 'text/csv;charset=utf-8' }))
    const a = document.createElement('a')
    a.href = url
    a.download = 'setup-links.csv'
    document.body.append(a)
    a.click()
    a.remove()
    // The download has its own copy of the blob by now.
    setTimeout(() => URL.revokeObjectURL(url), 0)
  }

  return (
    <section aria-labelledby="setup-links-title" className="space-y-4 rounded-lg border border-amber-500/40 bg-amber-500/10 p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="setup-links-title" className="font-semibold text-white">
          Setup links for the {links.length} new {links.length === 1 ? 'account' : 'accounts'}
        </h3>
        <Button variant="secondary" size="sm" onClick={download}>
          <Download aria-hidden="true" />
          Download as CSV
        </Button>
      </div>
      <p className="text-sm text-amber-100">Each person sets their password with their link. Hand them out now: they are not shown again.</p>
      <ul className="space-y-3" aria-label="Setup links">
        {links.map((l) => (
          <li key={l.line}>
            <CopyField label={`Setup link for ${l.name || l.email} (${l.email})`} value={l.url} />
          </li>
        ))}
      </ul>
    </section>
  )
}
