import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { fakeApi } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'
import { SignInForm } from './sign-in-form'

afterEach(() => vi.unstubAllGlobals())

async function signIn() {
  const user = userEvent.setup()
  await user.type(screen.getByLabelText('Email'), 'ada@example.com')
  await user.type(screen.getByLabelText('Password'), 'wrong password')
  await user.click(screen.getByRole('button', { name: 'Sign in' }))
}

describe('SignInForm', () => {
  it('shows the server\'s one message for a wrong email or password, and clears the password', async () => {
    fakeApi({ 'POST /api/account/sign-in': { status: 401, body: { message: 'email or password is incorrect' } } })
    renderWithApp(<SignInForm onSignedIn={() => {}} />)
    await signIn()
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Email or password is incorrect.'))
    expect(screen.getByLabelText('Password')).toHaveValue('')
    // Neither field is blamed: that would tell which one was wrong.
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid')
  })

  it('says how long to wait when throttled', async () => {
    fakeApi({
      'POST /api/account/sign-in': { status: 429, body: { message: 'too many sign-in attempts for this account; try again in 42 seconds' }, headers: { 'Retry-After': '42' } },
    })
    renderWithApp(<SignInForm onSignedIn={() => {}} />)
    await signIn()
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Too many attempts; try again in 42 seconds.'))
  })

  it('can show the password it hides', async () => {
    fakeApi({})
    renderWithApp(<SignInForm onSignedIn={() => {}} />)
    const password = screen.getByLabelText('Password')
    expect(password).toHaveAttribute('type', 'password')
    await userEvent.setup().click(screen.getByRole('checkbox', { name: 'Show password' }))
    expect(password).toHaveAttribute('type', 'text')
  })
})
