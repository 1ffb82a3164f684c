import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { fakeApi, guestMe } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'
import SignInPage from './sign-in-page'

afterEach(() => vi.unstubAllGlobals())

describe('SignInPage', () => {
  it('tells someone who forgot their password where a new one comes from', async () => {
    fakeApi({ 'GET /api/me': { body: guestMe } })
    renderWithApp(<SignInPage />, '/sign-in')
    const help = await screen.findByText('Forgot your password?')
    const command = screen.getByText('journeyman admin reset-password --email you@example.com')
    expect(command).not.toBeVisible()
    await userEvent.setup().click(help)
    expect(command).toBeVisible()
    expect(screen.getByText(/Ask your organisation’s admin/)).toBeVisible()
  })
})
