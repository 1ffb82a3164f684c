import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { AppRouter } from '@/app/router'
import { storedCertificate } from '@/test/certificate-answers'
import * as competencyAnswers from '@/test/competency-answers'
import { fakeApi, type FakeAnswer } from '@/test/fake-api'
import * as answers from '@/test/portal-answers'
import { renderWithApp } from '@/test/render'

afterEach(() => vi.unstubAllGlobals())

const slow = { timeout: 20_000 }
const page = `/portal/learners/${answers.learnerId}`
const base = `/api/users/${answers.learnerId}/competencies`

type Posted = { path: string; body: Record<string, unknown> }

/** The learner page's answers; sign-off and revoke answer what the test says, and the competencies are asked for again after each. */
function server({ signOff, revoke, me = answers.instructorMe() }: { signOff?: () => FakeAnswer; revoke?: () => FakeAnswer; me?: Record<string, unknown> } = {}) {
  const posted: Posted[] = []
  let competencyReads = 0
  const fetchMock = fakeApi({
    'GET /api/me': { body: me },
    'GET /api/cohorts': { body: [answers.cohort()] },
    [`GET /api/portal/learners/${answers.learnerId}`]: { body: answers.learnerDetail() },
    [`GET /api/users/${answers.learnerId}/xr-sessions`]: { body: [], headers: { 'X-Total-Count': '0' } },
    [`GET ${base}`]: () => {
      competencyReads++
      return { body: competencyAnswers.competencies() }
    },
    [`POST ${base}/sign-off`]: ({ body }) => {
      posted.push({ path: 'sign-off', body: JSON.parse(body ?? '{}') })
      return signOff?.() ?? { body: { certificate: null } }
    },
    [`POST ${base}/revoke`]: ({ body }) => {
      posted.push({ path: 'revoke', body: JSON.parse(body ?? '{}') })
      return revoke?.() ?? { body: { certificate: null } }
    },
  })
  return { posted, fetchMock, reads: () => competencyReads }
}

const programme = (name: string) => screen.getByRole('region', { name })
const lockout = () => screen.getByRole('article', { name: /^Lockout\/Tagout/ })

async function openCompetencies() {
  const app = renderWithApp(<AppRouter />, `${page}?tab=competencies`)
  await screen.findByRole('region', { name: 'Electrical programme' }, slow)
  return app
}

describe('the learner page’s tabs', { timeout: 30_000 }, () => {
  it('opens on the sessions, and keeps the open tab in the address', async () => {
    server()
    const { history } = renderWithApp(<AppRouter />, page)
    const tabs = await screen.findByRole('tablist', { name: 'Learner sections' }, slow)
    expect(within(tabs).getAllByRole('tab').map((t) => t.textContent)).toEqual(['Sessions', 'Competencies', 'History'])
    expect(within(tabs).getByRole('tab', { name: 'Sessions' })).toHaveAttribute('aria-selected', 'true')
    await userEvent.setup().click(within(tabs).getByRole('tab', { name: 'Competencies' }))
    await waitFor(() => expect(history.at(-1)).toBe(`${page}?tab=competencies`))
    expect(await screen.findByRole('region', { name: 'Electrical programme' })).toBeInTheDocument()
  })
})

describe('competencies', { timeout: 30_000 }, () => {
  it('shows each programme with its progress, the begun ones first and open, the others closed', async () => {
    server()
    await openCompetencies()
    const names = screen
      .getAllByRole('region')
      .map((r) => r.getAttribute('data-programme'))
      .filter(Boolean)
    expect(names).toEqual(['electrical', 'plumbing', 'hvac'])
    expect(screen.getByRole('progressbar', { name: 'Electrical programme: 1 of 6 competencies signed off' })).toBeInTheDocument()
    expect(within(programme('Electrical programme')).getByRole('button', { name: 'Electrical programme' })).toHaveAttribute('aria-expanded', 'true')
    // Not begun: closed, its modules not even rendered, until opened.
    const hvac = within(programme('HVAC programme')).getByRole('button', { name: 'HVAC programme' })
    expect(hvac).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryByRole('article', { name: 'Refrigerant Recovery' })).not.toBeInTheDocument()
    await userEvent.setup().click(hvac)
    expect(screen.getByRole('article', { name: 'Refrigerant Recovery' })).toBeInTheDocument()
    // A programme's valid certificate links to its page.
    expect(within(programme('Plumbing programme')).getByRole('link', { name: 'JXR-84JR-F7WQ-JSPQ' })).toHaveAttribute('href', `/certificates/${storedCertificate().id}`)
  })

  it("shows a module's evidence with a link to its review, and who signed off what", async () => {
    server()
    await openCompetencies()
    const card = lockout()
    expect(card).toHaveTextContent('Verified pass: 100%')
    expect(within(card).getByRole('link', { name: /^Review the session/ })).toHaveAttribute('href', `${page}/sessions/${answers.sessionId}`)
    const signed = card.querySelector('[data-competency="0"]') as HTMLElement
    expect(signed).toHaveTextContent('Signed off by Ivan Instructor')
    expect(signed).toHaveTextContent('Checked in practice')
    expect(signed).toHaveTextContent('Note: Traced the feeders on the panel schedule with me')
    expect(within(signed).getByRole('button', { name: `Revoke the sign-off of “${competencyAnswers.lockoutObjectives[0]}”` })).toBeInTheDocument()
    // The rest are checkboxes, all checked to begin with.
    const boxes = within(card).getAllByRole('checkbox', { name: /^(Apply|Perform|Explain)/ })
    expect(boxes).toHaveLength(3)
    for (const box of boxes) expect(box).toBeChecked()
    expect(within(card).getByRole('button', { name: 'Sign off all 3 competencies' })).toBeEnabled()
  })

  it('does not offer a sign-off without a verified pass, and says why', async () => {
    server()
    await openCompetencies()
    const meter = screen.getByRole('article', { name: 'Digital Multimeter Fundamentals' })
    expect(meter).toHaveTextContent('No verified pass yet')
    expect(meter).toHaveTextContent('0 of 2 competencies signed off')
    // Nothing has happened in it: closed until asked for.
    const toggle = within(meter).getByRole('button', { name: 'Digital Multimeter Fundamentals' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await userEvent.setup().click(toggle)
    expect(within(meter).queryByRole('checkbox')).not.toBeInTheDocument()
    expect(within(meter).getByTestId('sign-off-blocked')).toHaveTextContent('Bo Builder needs a verified, passed session of this module before it can be signed off.')
    expect(within(meter).getByRole('button', { name: 'Sign off' })).toBeDisabled()
  })

  it('does not let an instructor sign off their own competencies', async () => {
    server({ me: { ...answers.instructorMe(), id: answers.learnerId } })
    await openCompetencies()
    expect(within(lockout()).queryByRole('checkbox')).not.toBeInTheDocument()
    expect(within(lockout()).getByTestId('sign-off-blocked')).toHaveTextContent('You cannot sign off your own competencies')
  })

  it('signs off the chosen competencies and, when that completes the programme, links to the certificate issued', async () => {
    const issued = storedCertificate({ id: 'new-cert', programmeId: 'electrical', certificate: { ...storedCertificate().certificate, code: 'JXR-NEW1-NEW2-NEW3', programme: 'Electrical programme' } })
    const { posted, reads } = server({ signOff: () => ({ body: { certificate: issued } }) })
    await openCompetencies()
    const user = userEvent.setup()
    const card = lockout()
    await user.click(within(card).getByRole('checkbox', { name: /^Explain group lockout/ }))
    await user.click(within(card).getByRole('checkbox', { name: 'Checked in practice on the shop floor' }))
    expect(within(card).getByLabelText('Note (required with a practical check)')).toBeInTheDocument()
    await user.type(within(card).getByLabelText(/^Note/), '  Walked the lockout through on the conveyor  ')
    const before = reads()
    await user.click(within(card).getByRole('button', { name: 'Sign off 2 competencies' }))

    const status = await within(card).findByText(/This completed the Electrical programme/)
    expect(posted).toEqual([
      { path: 'sign-off', body: { moduleId: 'electrical-lockout-tagout', competencies: [1, 2], practical: true, note: 'Walked the lockout through on the conveyor' } },
    ])
    expect(within(card).getByTestId('sign-off-result')).toHaveTextContent('Signed off 2 competencies.')
    expect(within(status.closest('p') as HTMLElement).getByRole('link', { name: 'JXR-NEW1-NEW2-NEW3' })).toHaveAttribute('href', '/certificates/new-cert')
    // The page asks for the competencies again rather than guess what changed.
    expect(reads()).toBeGreaterThan(before)
  })

  it("shows the server's refusal in the form's alert", async () => {
    server({
      signOff: () => ({ status: 409, body: { message: 'Lockout/Tagout and Establishing an Electrically Safe Work Condition cannot be signed off yet: the learner has no verified, passed session of it' } }),
    })
    await openCompetencies()
    await userEvent.setup().click(within(lockout()).getByRole('button', { name: 'Sign off all 3 competencies' }))
    const alert = await within(lockout()).findByText(/cannot be signed off yet/)
    expect(alert).toHaveAttribute('role', 'alert')
    expect(alert).toHaveTextContent('the learner has no verified, passed session of it.')
    expect(within(lockout()).getByTestId('sign-off-result')).toHaveTextContent('')
  })

  it('asks for a note with a practical check before sending anything', async () => {
    const { posted } = server()
    await openCompetencies()
    const user = userEvent.setup()
    const card = lockout()
    await user.click(within(card).getByRole('checkbox', { name: 'Checked in practice on the shop floor' }))
    await user.click(within(card).getByRole('button', { name: 'Sign off all 3 competencies' }))
    const note = within(card).getByLabelText(/^Note/)
    await waitFor(() => expect(note).toHaveAccessibleDescription(/A practical check needs a note: say what you checked on the shop floor\./))
    expect(note).toHaveAttribute('aria-invalid', 'true')
    expect(note).toHaveFocus()
    // Unticking them all is a problem of its own, shown under the list.
    for (const box of within(card).getAllByRole('checkbox', { name: /^(Apply|Perform|Explain)/ })) await user.click(box)
    await user.click(within(card).getByRole('button', { name: 'Sign off 0 competencies' }))
    expect(await within(card).findByText('Choose at least one competency to sign off.')).toBeInTheDocument()
    expect(posted).toEqual([])
  })

  it('revokes a sign-off with a reason given in a dialog, and says when that revoked a certificate', async () => {
    const revoked = storedCertificate({ revokedAt: '2026-11-26T09:00:00Z', revokedReason: 'A competency it certifies was revoked: wrong learner' })
    const { posted } = server({ revoke: () => ({ body: { certificate: revoked } }) })
    await openCompetencies()
    const user = userEvent.setup()
    const button = within(lockout()).getByRole('button', { name: /^Revoke the sign-off of/ })
    await user.click(button)
    const dialog = await screen.findByRole('dialog', { name: 'Revoke a sign-off' })
    expect(dialog).toHaveTextContent(`“${competencyAnswers.lockoutObjectives[0]}”`)
    expect(dialog).toHaveTextContent('signed off by Ivan Instructor')

    // The reason is required.
    await user.click(within(dialog).getByRole('button', { name: 'Revoke sign-off' }))
    expect(within(dialog).getByLabelText('Reason (required)')).toHaveAccessibleDescription(/Give the reason/)
    expect(posted).toEqual([])

    // Cancel returns focus to the button that opened it.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(button).toHaveFocus()

    await user.click(button)
    const again = await screen.findByRole('dialog', { name: 'Revoke a sign-off' })
    const reason = within(again).getByLabelText('Reason (required)')
    expect(reason).toHaveValue('')
    await user.type(reason, 'Signed off on the wrong learner')
    await user.click(within(again).getByRole('button', { name: 'Revoke sign-off' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(posted).toEqual([{ path: 'revoke', body: { moduleId: 'electrical-lockout-tagout', competencies: [0], note: 'Signed off on the wrong learner' } }])
    const status = within(lockout()).getByTestId('sign-off-result')
    expect(status).toHaveTextContent(`Revoked the sign-off of “${competencyAnswers.lockoutObjectives[0]}”.`)
    expect(status).toHaveTextContent('The Plumbing programme certificate JXR-84JR-F7WQ-JSPQ was revoked with it.')
  })

  it("shows the server's refusal of a revocation in the dialog", async () => {
    server({ revoke: () => ({ status: 409, body: { message: '“Identify every energy source” is not signed off, so there is nothing to revoke' } }) })
    await openCompetencies()
    const user = userEvent.setup()
    await user.click(within(lockout()).getByRole('button', { name: /^Revoke the sign-off of/ }))
    const dialog = await screen.findByRole('dialog')
    await user.type(within(dialog).getByLabelText('Reason (required)'), 'Retest failed')
    await user.click(within(dialog).getByRole('button', { name: 'Revoke sign-off' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('is not signed off, so there is nothing to revoke.')
  })
})

describe('history', { timeout: 30_000 }, () => {
  it('lists every sign-off and revocation newest first, and the certificates with their status', async () => {
    server()
    renderWithApp(<AppRouter />, `${page}?tab=history`)
    const events = await screen.findByTestId('sign-off-history', {}, slow)
    const items = within(events).getAllByRole('listitem')
    expect(items.map((i) => i.getAttribute('data-event'))).toEqual(['signed', 'revoked', 'signed', 'signed'])
    expect(items[0]).toHaveTextContent('Signed off by Ivan Instructor')
    expect(items[0]).toHaveTextContent('Note: Traced the feeders')
    expect(items[0]).toHaveTextContent('Lockout/Tagout')
    expect(items[1]).toHaveTextContent('Revoked by Ada Admin')
    expect(items[1]).toHaveTextContent('Reason: Signed off on the wrong learner')

    const certificates = screen.getByRole('list', { name: 'Certificates' })
    const [valid, old] = within(certificates).getAllByRole('listitem')
    expect(valid).toHaveTextContent('Plumbing programme')
    expect(valid).toHaveTextContent('Valid')
    expect(within(valid).getByRole('link', { name: 'JXR-84JR-F7WQ-JSPQ' })).toHaveAttribute('href', `/certificates/${storedCertificate().id}`)
    expect(old).toHaveTextContent('Revoked')
    expect(old).toHaveTextContent('Solder joints failed the pressure test')
    expect(within(old).getByRole('link', { name: 'JXR-0LD0-0LD0-0LD0' })).toHaveAttribute('href', '/certificates/old-certificate')
  })
})
