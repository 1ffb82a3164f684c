import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { adminMe, fakeApi, guestMe, learnerMe } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'
import SetupPage from './setup-page'

afterEach(() => vi.unstubAllGlobals())

const link = { 'GET /api/setup/Tok-1': { body: { setUp: false, expiresAt: '2026-12-08T10:00:00Z' } } }
const page = <SetupPage params={{ token: 'Tok-1' }} />

/** Fills the form as a person new to the deployment and submits it. */
async function createOrganisation() {
  const user = userEvent.setup()
  await user.type(await screen.findByLabelText('Organisation name'), 'Northside Training')
  await user.type(screen.getByLabelText('Your email'), 'ada@example.com')
  await user.type(screen.getByLabelText('Your name'), 'Ada Lovelace')
  await user.type(screen.getByLabelText('Password'), 'a long test password')
  await user.click(screen.getByRole('button', { name: 'Create organisation' }))
}

describe('SetupPage', () => {
  it('says when the deployment is set up already, with the way in', async () => {
    fakeApi({ 'GET /api/me': { body: guestMe }, 'GET /api/setup/Tok-1': { body: { setUp: true } } })
    renderWithApp(page)
    expect(await screen.findByText(/This deployment is set up already\./)).toHaveTextContent('This deployment is set up already. Sign in, or ask its admin for an invite.')
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in')
    expect(screen.queryByRole('form')).not.toBeInTheDocument()
  })

  it('says how to get a new link when this one is unknown or expired', async () => {
    fakeApi({ 'GET /api/me': { body: guestMe }, 'GET /api/setup/Tok-1': { status: 404, body: { message: 'this setup link is invalid or has expired' } } })
    renderWithApp(page)
    expect(await screen.findByRole('alert')).toHaveTextContent('Restart the server: it logs a new one while no organisation exists.')
  })

  it('checks every field before sending and focuses the first in error', async () => {
    const fetchMock = fakeApi({ 'GET /api/me': { body: guestMe }, ...link })
    renderWithApp(page)
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Create organisation' }))
    const org = screen.getByLabelText('Organisation name')
    expect(org).toHaveAccessibleDescription(/Organisation name is required\./)
    expect(screen.getByLabelText('Your email')).toHaveAccessibleDescription(/Email is required\./)
    expect(screen.getByLabelText('Your name')).toHaveAccessibleDescription(/Display name is required\./)
    await waitFor(() => expect(org).toHaveFocus())
    expect(fetchMock).not.toHaveBeenCalledWith('/api/setup/Tok-1', expect.objectContaining({ method: 'POST' }))
  })

  it('creates the organisation with a new admin account and opens its invites', async () => {
    const fetchMock = fakeApi({ 'GET /api/me': { body: guestMe }, ...link, 'POST /api/setup/Tok-1': { status: 201, body: adminMe } })
    const { history } = renderWithApp(page, '/setup/Tok-1')
    await createOrganisation()
    await waitFor(() => expect(history.at(-1)).toBe('/organisation?tab=invites'))
    const call = fetchMock.mock.calls.find(([url, init]) => url === '/api/setup/Tok-1' && init?.method === 'POST')
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      organisationName: 'Northside Training',
      email: 'ada@example.com',
      displayName: 'Ada Lovelace',
      password: 'a long test password',
    })
  })

  it('puts a taken email under the email field', async () => {
    fakeApi({
      'GET /api/me': { body: guestMe },
      ...link,
      'POST /api/setup/Tok-1': { status: 409, body: { message: 'this email cannot be used to sign up; if it is yours, sign in' } },
    })
    renderWithApp(page)
    await createOrganisation()
    await waitFor(() => expect(screen.getByLabelText('Your email')).toHaveAccessibleDescription('This email cannot be used to sign up; if it is yours, sign in.'))
  })

  it('makes a signed-in account the admin with the organisation name alone', async () => {
    const fetchMock = fakeApi({ 'GET /api/me': { body: learnerMe }, ...link, 'POST /api/setup/Tok-1': { status: 201, body: { ...learnerMe, role: 'admin' } } })
    renderWithApp(page)
    expect(await screen.findByText(/You, Lee Learner, become its admin/)).toBeInTheDocument()
    expect(screen.queryByLabelText('Your email')).not.toBeInTheDocument()
    const user = userEvent.setup()
    await user.type(screen.getByLabelText('Organisation name'), 'Lee’s Workshop')
    await user.click(screen.getByRole('button', { name: 'Create organisation' }))
    await waitFor(() => {
      const call = fetchMock.mock.calls.find(([url, init]) => url === '/api/setup/Tok-1' && init?.method === 'POST')
      expect(JSON.parse(String(call?.[1]?.body))).toEqual({ organisationName: 'Lee’s Workshop' })
    })
  })
})
