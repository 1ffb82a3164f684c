import { describe, expect, it } from 'vitest'
import { render, screen, within } from '@testing-library/react'
import type { RosterReport } from '@/api/organisation'
import { RosterReportView, SetupLinks } from './roster-report'
import { canImport, setupLinks, setupLinksCsv, summarizeCounts } from '../lib/roster'

const dryRun: RosterReport = {
  dryRun: true,
  applied: false,
  rows: [
    { line: 2, email: 'bo@example.com', name: 'Bo Builder', role: 'learner', cohort: 'Spring', outcome: 'create', message: '' },
    { line: 3, email: 'cy@example.com', name: 'Cy', role: 'instructor', cohort: '', outcome: 'update', message: 'role learner → instructor' },
    { line: 5, email: 'not-an-email', name: 'X', role: 'learner', cohort: '', outcome: 'error', message: 'email must be an email address like name@example.com' },
  ],
  counts: { create: 1, update: 1, unchanged: 0, error: 1 },
}

const applied: RosterReport = {
  dryRun: false,
  applied: true,
  rows: [
    { line: 2, email: 'bo@example.com', name: 'Bo, "the Builder"', role: 'learner', cohort: 'Spring', outcome: 'create', message: '', setupUrl: 'http://app.test/reset-password/AAA' },
    { line: 3, email: 'cy@example.com', name: 'Cy', role: 'instructor', cohort: '', outcome: 'update', message: '' },
    { line: 4, email: '=cmd@example.com', name: '@risky', role: 'learner', cohort: '', outcome: 'create', message: '', setupUrl: 'http://app.test/reset-password/BBB' },
  ],
  counts: { create: 2, update: 1, unchanged: 0, error: 0 },
}

describe('RosterReportView', () => {
  it('shows every row with its CSV line number and outcome, the error row marked in words', () => {
    render(<RosterReportView report={dryRun} />)
    expect(screen.getByText('Check result: 1 new account, 1 updated, 0 unchanged, 1 error')).toBeInTheDocument()
    const table = screen.getByRole('table')
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Line', 'Outcome', 'Email', 'Name', 'Role', 'Cohort'])
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['2', '3', '5'])
    // Line 4 was blank: the table's name says why its number is missing.
    expect(table).toHaveAccessibleName(/one row per person, by the line of the file it is on \(blank lines, and rows of empty cells, are skipped\)/)
    const bad = rows[2]
    expect(bad).toHaveAttribute('data-outcome', 'error')
    expect(bad).toHaveTextContent('Error')
    expect(bad).toHaveTextContent('email must be an email address like name@example.com')
    expect(rows[0]).toHaveTextContent('New account')
    expect(rows[1]).toHaveTextContent('role learner → instructor')
    // The scrolling table can be reached and is named.
    expect(screen.getByRole('region', { name: /Check result/ })).toHaveAttribute('tabindex', '0')
  })

  it('says when an import was refused', () => {
    render(<RosterReportView report={{ ...dryRun, dryRun: false }} />)
    expect(screen.getByText(/^Import refused:/)).toBeInTheDocument()
  })
})

describe('SetupLinks', () => {
  it('lists the created accounts\' links, each with a copy button, and offers them as CSV', () => {
    render(<SetupLinks report={applied} />)
    expect(screen.getByRole('heading', { name: 'Setup links for the 2 new accounts' })).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Setup link for Bo, "the Builder" (bo@example.com)' })).toHaveValue('http://app.test/reset-password/AAA')
    expect(screen.getAllByRole('button', { name: /^Copy setup link/ })).toHaveLength(2)
    expect(screen.getByRole('button', { name: 'Download as CSV' })).toBeInTheDocument()
  })

  it('shows nothing for a dry run', () => {
    const { container } = render(<SetupLinks report={dryRun} />)
    expect(container).toBeEmptyDOMElement()
  })
})

describe('roster helpers', () => {
  it('allows import only for the very text a clean check saw', () => {
    const clean = { ...dryRun, rows: dryRun.rows.slice(0, 2), counts: { ...dryRun.counts, error: 0 } }
    expect(canImport(clean, 'a,b', 'a,b')).toBe(true)
    expect(canImport(clean, 'a,b', 'a,b,c')).toBe(false)
    expect(canImport(dryRun, 'a,b', 'a,b')).toBe(false)
    expect(canImport(null, null, '')).toBe(false)
    expect(canImport({ ...clean, rows: [] }, '', '')).toBe(false)
    expect(canImport({ ...clean, dryRun: false }, 'a,b', 'a,b')).toBe(false)
  })

  it('writes the setup links as CSV, quoting and defusing what a spreadsheet would run', () => {
    expect(setupLinksCsv(setupLinks(applied))).toBe(
      'email,name,setupUrl\r\nbo@example.com,"Bo, ""the Builder""",http://app.test/reset-password/AAA\r\n\'=cmd@example.com,\'@risky,http://app.test/reset-password/BBB\r\n',
    )
  })

  it('counts in words', () => {
    expect(summarizeCounts({ create: 1, update: 0, unchanged: 2, error: 0 })).toBe('1 new account, 0 updated, 2 unchanged, 0 errors')
  })
})
