import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { fakeApi, adminMe } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'
import { SignUpForm } from './sign-up-form'

afterEach(() => vi.unstubAllGlobals())

async function fill(email: string, name: string, password: string) {
  const user = userEvent.setup()
  if (email) await user.type(screen.getByLabelText('Email'), email)
  if (name) await user.type(screen.getByLabelText('Display name'), name)
  if (password) await user.type(screen.getByLabelText('Password'), password)
  await user.click(screen.getByRole('button', { name: 'Create account' }))
  return user
}

describe('SignUpForm', () => {
  it('states the password policy before anything is typed, tied to the field', () => {
    fakeApi({})
    renderWithApp(<SignUpForm onSignedUp={() => {}} />)
    const password = screen.getByLabelText('Password')
    expect(password).toHaveAccessibleDescription(/At least 8 characters, and not a common password/)
  })

  it('checks the fields before sending, marks each bad one and focuses the first', async () => {
    const fetchMock = fakeApi({})
    renderWithApp(<SignUpForm onSignedUp={() => {}} />)
    await fill('nope', '', 'short')
    const email = screen.getByLabelText('Email')
    expect(email).toHaveAttribute('aria-invalid', 'true')
    expect(email).toHaveAccessibleDescription('Email must be an address like name@example.com.')
    expect(screen.getByLabelText('Display name')).toHaveAccessibleDescription(/Display name is required\./)
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(/Password must be at least 8 characters\./)
    await waitFor(() => expect(email).toHaveFocus())
    expect(screen.getByRole('alert')).toHaveTextContent('Email must be an address')
    expect(fetchMock).not.toHaveBeenCalledWith('/api/account/sign-up', expect.anything())
  })

  it('shows the server\'s 400 under the field it names', async () => {
    fakeApi({
      'GET /api/me': { body: { id: 'g1', displayName: 'Guest', guest: true } },
      'POST /api/account/sign-up': { status: 400, body: { message: 'password is one of the most commonly used passwords; choose another' } },
    })
    renderWithApp(<SignUpForm onSignedUp={() => {}} />)
    await fill('ada@example.com', 'Ada', 'password1')
    const password = screen.getByLabelText('Password')
    await waitFor(() => expect(password).toHaveAttribute('aria-invalid', 'true'))
    expect(password).toHaveAccessibleDescription(/Password is one of the most commonly used passwords; choose another\./)
    await waitFor(() => expect(password).toHaveFocus())
  })

  it('puts a taken email (409) under the email field', async () => {
    fakeApi({ 'POST /api/account/sign-up': { status: 409, body: { message: 'this email cannot be used to sign up; if it is yours, sign in' } } })
    renderWithApp(<SignUpForm onSignedUp={() => {}} />)
    await fill('ada@example.com', 'Ada', 'long enough pass')
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('This email cannot be used to sign up; if it is yours, sign in.'))
  })

  it('sends the invite token and hands over the new identity', async () => {
    const fetchMock = fakeApi({ 'POST /api/account/sign-up': { status: 201, body: adminMe }, 'GET /api/me': { body: adminMe } })
    const onSignedUp = vi.fn()
    renderWithApp(<SignUpForm inviteToken="Tok-123" onSignedUp={onSignedUp} />)
    await fill('ada@example.com', 'Ada Lovelace', 'long enough pass')
    await waitFor(() => expect(onSignedUp).toHaveBeenCalledWith(expect.objectContaining({ email: 'ada@example.com', role: 'admin' })))
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/account/sign-up')
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ email: 'ada@example.com', displayName: 'Ada Lovelace', password: 'long enough pass', inviteToken: 'Tok-123' })
  })

  it('reads a bad invite as a problem of the form', async () => {
    fakeApi({ 'POST /api/account/sign-up': { status: 400, body: { message: 'inviteToken: this invite link is used up' } } })
    renderWithApp(<SignUpForm inviteToken="x" onSignedUp={() => {}} />)
    await fill('ada@example.com', 'Ada', 'long enough pass')
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('This invite link is used up.'))
  })
})
