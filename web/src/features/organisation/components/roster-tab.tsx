import { useId, useState, type ChangeEvent } from 'react'
import { Button } from '@/components/ui/button'
import { FormAlert } from '@/components/ui/form-field'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/input'
import { useImportRoster, type RosterReport } from '@/api/organisation'
import { formErrors } from '@/lib/form-errors'
import { ROSTER_HEADER, canImport } from '../lib/roster'
import { RosterReportView, SetupLinks } from './roster-report'
import { Panel } from './shared'

/** The server's limits on a roster (1 MiB, 2,000 rows). */
export const ROSTER_MAX_BYTES = 1024 * 1024

/**
 * Roster import (admins): a CSV is checked first (a dry run that writes
 * nothing and reports every row), and only a check without errors unlocks
 * the import, for exactly the text that was checked.
 */
export function RosterTab() {
  const [csv, setCsv] = useState('')
  const [checked, setChecked] = useState<{ text: string; report: RosterReport } | null>(null)
  const [result, setResult] = useState<RosterReport | null>(null)
  const [error, setError] = useState('')
  const [fileName, setFileName] = useState('')
  const run = useImportRoster()
  const fileId = useId()
  const textId = useId()
  const helpId = useId()

  const ready = canImport(checked?.report ?? null, checked?.text ?? null, csv)
  const report = result ?? checked?.report ?? null
  const stale = !!checked && checked.text !== csv && !result

  // The setup links of an applied import are shown once: editing the text afterwards must not hide them.
  const keepAppliedResult = () => setResult((r) => (r?.applied ? r : null))

  const chooseFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    if (!file) return
    setError('')
    if (file.size > ROSTER_MAX_BYTES) {
      setError(`${file.name} is larger than 1 MiB; split it into smaller files.`)
      return
    }
    setFileName(file.name)
    setCsv(await file.text())
    keepAppliedResult()
  }

  const check = () => {
    setError('')
    setResult(null)
    const text = csv
    run.mutate(
      { csv: text, dryRun: true },
      {
        onSuccess: (r) => setChecked({ text, report: r }),
        onError: (e) => {
          setChecked(null)
          setError(formErrors(e, {}).form ?? 'The check failed.')
        },
      },
    )
  }

  const importNow = () => {
    setError('')
    run.mutate(
      { csv, dryRun: false },
      {
        onSuccess: (r) => {
          setResult(r)
          if (!r.applied) setError('Nothing was imported: some rows have errors now. Fix them and check again.')
          else setChecked(null)
        },
        onError: (e) => setError(formErrors(e, {}).form ?? 'The import failed.'),
      },
    )
  }

  return (
    <div className="space-y-6">
      <Panel
        title="Import a roster"
        description={
          <>
            A CSV file with the header row <code className="rounded bg-slate-800 px-1 font-mono text-amber-200">{ROSTER_HEADER}</code>. Role is learner,
            instructor or admin; a cohort that does not exist yet is created. Up to 2,000 rows and 1 MiB.
          </>
        }
      >
        <div className="space-y-4">
          <div className="space-y-1.5">
            <Label htmlFor={fileId}>Choose a CSV file</Label>
            <input
              id={fileId}
              type="file"
              accept=".csv,text/csv"
              onChange={chooseFile}
              className="block w-full text-sm text-slate-300 file:mr-3 file:rounded-md file:border-0 file:bg-slate-800 file:px-3 file:py-2 file:font-semibold file:text-white hover:file:bg-slate-700"
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={textId}>Or paste the CSV{fileName ? ` (loaded from ${fileName}; you can edit it here)` : ''}</Label>
            <Textarea
              id={textId}
              aria-describedby={helpId}
              className="min-h-48 font-mono text-xs"
              spellCheck={false}
              placeholder={`${ROSTER_HEADER}\nada@example.com,Ada Lovelace,learner,Spring 2027`}
              value={csv}
              onChange={(e) => {
                setCsv(e.target.value)
                keepAppliedResult()
              }}
            />
            <p id={helpId} className="text-xs text-slate-300">
              Check runs every row without saving anything. Import is available once a check finds no errors.
            </p>
          </div>
          <FormAlert error={error} success={stale ? '' : ready ? 'No errors: ready to import.' : ''} />
          {stale && <p className="text-sm text-amber-200">The CSV changed since the last check: check it again before importing.</p>}
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" disabled={!csv.trim() || run.isPending} onClick={check}>
              {run.isPending && run.variables?.dryRun ? 'Checking…' : 'Check'}
            </Button>
            <Button disabled={!ready || run.isPending} onClick={importNow}>
              {run.isPending && run.variables?.dryRun === false ? 'Importing…' : 'Import'}
            </Button>
          </div>
        </div>
      </Panel>
      {report && (
        <Panel title={result ? 'Import report' : 'Check report'}>
          <div className="space-y-6">
            <RosterReportView report={report} />
            <SetupLinks report={report} />
          </div>
        </Panel>
      )}
    </div>
  )
}
