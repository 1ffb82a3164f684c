import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, within } from '@testing-library/react'
import { AppRouter } from '@/app/router'
import * as answers from '@/test/certificate-answers'
import { fakeApi, learnerMe, type FakeAnswer } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'

afterEach(() => vi.unstubAllGlobals())

const slow = { timeout: 20_000 }
const learner = { ...learnerMe, id: answers.learnerId, displayName: 'Lena Learner', organisation: { id: 'o1', name: 'Riverside Plant Training' } }

function openAccount(competencies: FakeAnswer) {
  fakeApi({
    'GET /api/me': { body: learner },
    [`GET /api/users/${answers.learnerId}/competencies`]: competencies,
    [`GET /api/users/${answers.learnerId}/xr-sessions`]: { body: [] },
    'GET /api/personalization': { body: null },
  })
  renderWithApp(<AppRouter />, '/account')
}

/** The Certificates card, found by its heading. */
async function card() {
  const heading = await screen.findByRole('heading', { level: 2, name: 'Certificates' }, slow)
  return heading.closest<HTMLElement>('.rounded-xl')!
}

describe("the account's certificates", { timeout: 30_000 }, () => {
  it('lists each certificate with its status and a link to print it, and the programmes started', async () => {
    const revoked = { ...answers.revokedCertificate(), id: 'c2', certificate: { ...answers.certificateContent(), code: 'JXR-AAAA-BBBB-CCCC' } }
    openAccount({ body: { ...answers.competencies(), certificates: [answers.storedCertificate(), revoked] } })
    const certificates = await screen.findByRole('list', { name: 'Your certificates' }, slow)
    const [valid, old] = within(certificates).getAllByRole('listitem')
    expect(within(valid).getByRole('link', { name: 'Plumbing programme' })).toHaveAttribute('href', `/certificates/${answers.certificateId}`)
    expect(valid).toHaveTextContent('Valid')
    expect(valid).toHaveTextContent(answers.code)
    expect(within(old).getByRole('link', { name: 'Plumbing programme' })).toHaveAttribute('href', '/certificates/c2')
    expect(old).toHaveTextContent('Revoked')

    // Programmes with a competency held, and none of the others.
    const c = await card()
    expect(within(c).getByRole('progressbar', { name: 'Plumbing programme: 20 of 20 competencies signed off' })).toBeInTheDocument()
    expect(within(c).getByRole('progressbar', { name: 'HVAC programme: 4 of 19 competencies signed off' })).toBeInTheDocument()
    expect(within(c).queryByText('Electrical programme')).not.toBeInTheDocument()
  })

  it('says there are none yet', async () => {
    openAccount({ body: { ...answers.competencies(), programmes: [], certificates: [] } })
    expect(await within(await card()).findByText('No certificates yet.')).toBeInTheDocument()
  })

  it('says when they could not be loaded', async () => {
    openAccount({ status: 500, body: { message: 'internal error' } })
    expect(await within(await card()).findByRole('alert')).toHaveTextContent('Could not load your certificates.')
  })
})
