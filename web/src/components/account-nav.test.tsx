import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Navigation } from '@/components/navigation'
import { adminMe, fakeApi, guestMe, learnerMe } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'

afterEach(() => vi.unstubAllGlobals())

// jsdom has no media queries; the navigation listens for the mobile breakpoint.
window.matchMedia ??= ((query: string) =>
  ({ matches: false, media: query, addEventListener: () => {}, removeEventListener: () => {} }) as unknown as MediaQueryList) as typeof window.matchMedia

// The first render imports the whole navigation, which a busy machine takes seconds over.
describe('navigation account area', { timeout: 20_000 }, () => {
  it('offers a guest Sign in and Sign up that come back to this page', async () => {
    fakeApi({ 'GET /api/me': { body: guestMe } })
    renderWithApp(<Navigation />, '/analytics')
    const nav = screen.getByRole('navigation', { name: 'Main' })
    expect(await within(nav).findByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in?next=%2Fanalytics')
    expect(within(nav).getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/sign-up?next=%2Fanalytics')
    const panel = screen.getByTestId('mobile-menu')
    expect(within(panel).getByRole('link', { name: 'Sign in', hidden: true })).toBeInTheDocument()
  })

  it('shows the signed-in name and role, with Account, Portal, Organisation and Sign out in its menu', async () => {
    let signedIn = true
    const fetchMock = fakeApi({
      'GET /api/me': () => ({ body: signedIn ? adminMe : guestMe }),
      'POST /api/account/sign-out': () => {
        signedIn = false
        return { status: 204 }
      },
    })
    renderWithApp(<Navigation />, '/')
    const trigger = await screen.findByTestId('account-menu-trigger')
    expect(trigger).toHaveAccessibleName('Account menu: Ada Lovelace Admin')
    const user = userEvent.setup()
    await user.click(trigger)
    expect(await screen.findByRole('menuitem', { name: 'Account' })).toHaveAttribute('href', '/account')
    expect(screen.getByRole('menuitem', { name: 'Portal' })).toHaveAttribute('href', '/portal')
    expect(screen.getByRole('menuitem', { name: 'Live view' })).toHaveAttribute('href', '/portal/live')
    expect(screen.getByRole('menuitem', { name: 'Organisation' })).toHaveAttribute('href', '/organisation')
    await user.click(screen.getByRole('menuitem', { name: 'Sign out' }))
    // Signed out, the bar asks who this is again and offers Sign in.
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument()
    expect(fetchMock).toHaveBeenCalledWith('/api/account/sign-out', expect.objectContaining({ method: 'POST' }))
  })

  it.each([
    ['/portal/live', '/'],
    ['/certificates/c1', '/'],
    ['/analytics', '/analytics'],
  ])('signing out on %s leads to %s, whether or not the page is on screen yet', async (path, after) => {
    let signedIn = true
    fakeApi({
      'GET /api/me': () => ({ body: signedIn ? adminMe : guestMe }),
      'POST /api/account/sign-out': () => {
        signedIn = false
        return { status: 204 }
      },
    })
    // The navigation alone: the page's own guard, which would also send the visitor away, is not there.
    const { history } = renderWithApp(<Navigation />, path)
    const user = userEvent.setup()
    await user.click(await screen.findByTestId('account-menu-trigger'))
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }))
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument()
    await waitFor(() => expect(history.at(-1)).toBe(after))
  })

  it('offers a learner no Portal and no Organisation', async () => {
    fakeApi({ 'GET /api/me': { body: learnerMe } })
    renderWithApp(<Navigation />, '/')
    await userEvent.setup().click(await screen.findByTestId('account-menu-trigger'))
    expect(await screen.findByRole('menuitem', { name: 'Account' })).toBeInTheDocument()
    expect(screen.queryByRole('menuitem', { name: 'Organisation' })).not.toBeInTheDocument()
    expect(screen.queryByRole('menuitem', { name: 'Portal' })).not.toBeInTheDocument()
    expect(screen.queryByRole('menuitem', { name: 'Live view' })).not.toBeInTheDocument()
  })

  it('shows the name and role in the mobile panel', async () => {
    fakeApi({ 'GET /api/me': { body: adminMe } })
    renderWithApp(<Navigation />, '/')
    await userEvent.setup().click(screen.getByRole('button', { name: 'Menu' }))
    const account = await within(screen.getByTestId('mobile-menu')).findByRole('region', { name: 'Your account' })
    expect(account).toHaveTextContent('Ada Lovelace')
    expect(account).toHaveTextContent('Admin · Northside Training Centre')
    await waitFor(() => expect(within(account).getByRole('link', { name: 'Organisation' })).toHaveAttribute('href', '/organisation'))
    expect(within(account).getByRole('link', { name: 'Portal' })).toHaveAttribute('href', '/portal')
    expect(within(account).getByRole('link', { name: 'Live view' })).toHaveAttribute('href', '/portal/live')
  })
})
