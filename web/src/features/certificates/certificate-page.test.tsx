import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { AppRouter } from '@/app/router'
import { matchRoute } from '@/app/routes'
import * as answers from '@/test/certificate-answers'
import { fakeApi, guestMe, learnerMe } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'

afterEach(() => vi.unstubAllGlobals())

const slow = { timeout: 20_000 }
const path = `/certificates/${answers.certificateId}`
const learner = { ...learnerMe, id: answers.learnerId, displayName: 'Lena Learner', organisation: { id: 'o1', name: 'Riverside Plant Training' } }

describe('/certificates/:id', { timeout: 30_000 }, () => {
  it('passes the id as typed', () => {
    expect(matchRoute('/Certificates/AbC123').params).toEqual({ id: 'AbC123' })
  })

  it('sends a signed-out visitor to sign in, and back', async () => {
    const fetchMock = fakeApi({ 'GET /api/me': { body: guestMe } })
    const { history } = renderWithApp(<AppRouter />, path)
    await waitFor(() => expect(history.at(-1)).toBe(`/sign-in?next=${encodeURIComponent(path)}`), slow)
    expect(fetchMock).not.toHaveBeenCalledWith(expect.stringContaining('/api/certificates'), expect.anything())
  })

  it('shows the certificate as a document, every competency, and prints it', async () => {
    fakeApi({ 'GET /api/me': { body: learner }, [`GET /api/certificates/${answers.certificateId}`]: { body: answers.storedCertificate() } })
    const print = vi.fn()
    vi.stubGlobal('print', print)
    renderWithApp(<AppRouter />, path)
    expect(await screen.findByRole('heading', { level: 1, name: 'Certificate of Competence' }, slow)).toBeInTheDocument()
    const doc = screen.getByTestId('certificate')
    for (const text of ['Lena Learner', 'Plumbing programme', 'Ivan Instructor', '24 November 2026', answers.code]) {
      expect(within(doc).getAllByText(text, { exact: false }).length).toBeGreaterThan(0)
    }
    // Each module names its rows once; each row is a competency with when, by whom, and whether checked in practice.
    const table = within(doc).getByRole('table')
    const rows = within(table)
      .getAllByRole('row')
      .filter((r) => within(r).queryAllByRole('cell').length > 0)
    expect(rows.map((r) => r.textContent)).toEqual([
      'Locating and Isolating a Water LeakLocate fixture stops, branch valves, the main shutoff and the meter or curb stop24 Nov 2026Ivan InstructorYes',
      'Soldering Copper Water LinesCut, ream and clean tube and fitting to bright metal24 Nov 2026Ivan InstructorNo',
    ])
    expect(within(table).getByRole('rowheader', { name: 'Soldering Copper Water Lines' })).toHaveAttribute('scope', 'rowgroup')
    // On paper, every sheet the table runs over says whose certificate it is.
    expect(within(table).getByRole('columnheader', { name: `Lena Learner · Plumbing programme · ${answers.code}` })).toBeInTheDocument()
    // The phone's list says the same.
    expect(within(doc).getByRole('list', { name: 'Competencies (2)' })).toHaveTextContent(
      'Soldering Copper Water LinesCut, ream and clean tube and fitting to bright metalAchieved 24 November 2026 · signed by Ivan Instructor · practical check no',
    )
    // The table scrolls sideways on a phone: its region can be reached and scrolled by keyboard.
    expect(within(doc).getByRole('region', { name: 'Competencies (2)' })).toHaveAttribute('tabindex', '0')
    await userEvent.setup().click(screen.getByRole('button', { name: 'Print' }))
    expect(print).toHaveBeenCalledOnce()
  })

  it('marks a revoked certificate, with the reason, for the people who may see it', async () => {
    fakeApi({ 'GET /api/me': { body: learner }, [`GET /api/certificates/${answers.certificateId}`]: { body: answers.revokedCertificate() } })
    renderWithApp(<AppRouter />, path)
    const banner = await screen.findByTestId('certificate-revoked', {}, slow)
    expect(banner).toHaveTextContent('REVOKED')
    expect(banner).toHaveTextContent('revoked on 25 November 2026')
    expect(banner).toHaveTextContent('Reason: A competency it certifies was revoked: Solder joints failed the pressure test')
  })

  it("shows the server's 404 as not found", async () => {
    fakeApi({ 'GET /api/me': { body: learner }, [`GET /api/certificates/${answers.certificateId}`]: answers.certificateNotFound() })
    renderWithApp(<AppRouter />, path)
    expect(await screen.findByRole('heading', { level: 1, name: 'Certificate not found' }, slow)).toBeInTheDocument()
    expect(screen.getByText(/^No certificate has this code or id\./)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Print' })).not.toBeInTheDocument()
  })
})
