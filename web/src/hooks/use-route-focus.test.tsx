import { lazy, Suspense, useEffect, useRef } from 'react'
import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { Link, Route, Router, Switch, useLocation } from 'wouter'
import { navigate } from 'wouter/use-browser-location'
import { useRouteFocus } from '@/hooks/use-route-focus'

/** A page whose chunk arrives when the test says so. */
let arrive: () => void = () => {}
const LazyPage = lazy(
  () =>
    new Promise<{ default: () => React.JSX.Element }>((resolve) => {
      arrive = () => resolve({ default: () => <h1>Lazy page</h1> })
    }),
)

/** Like useRequireAccount: sends a guest elsewhere as soon as the page shows. */
function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to])
  return <h1>Members only</h1>
}

/** A screen that focuses its first field as it opens. */
function SignIn() {
  const field = useRef<HTMLInputElement>(null)
  useEffect(() => field.current?.focus(), [])
  return (
    <>
      <h1>Sign in</h1>
      <label>
        Email <input ref={field} />
      </label>
    </>
  )
}

/** The app's frame in small: a navigation, the main landmark and a routed screen, with the hook as AppRouter uses it. */
function Shell() {
  const [location] = useLocation()
  useRouteFocus(location)
  return (
    <>
      <a href="#main-content">Skip to main content</a>
      <nav aria-label="Main">
        <Link href="/">Home</Link>
        <Link href="/analytics">Analytics</Link>
        <Link href="/lazy">Lazy</Link>
      </nav>
      <main id="main-content" tabIndex={-1}>
        <Suspense fallback={<p role="status">Loading page…</p>}>
          <Switch>
            <Route path="/">
              <h1>Home</h1>
              <Link href="/analytics">See the analytics</Link>
              <a href="#about">About</a>
              <section id="about">About us</section>
            </Route>
            <Route path="/analytics">
              <h1>Analytics Dashboard</h1>
              <Link href="/analytics?tab=trends">Trends</Link>
            </Route>
            <Route path="/sign-in">
              <SignIn />
            </Route>
            <Route path="/account">
              <Redirect to="/analytics" />
            </Route>
            <Route path="/lazy">
              <LazyPage />
            </Route>
          </Switch>
        </Suspense>
      </main>
    </>
  )
}

function renderAt(path: string) {
  window.history.replaceState(null, '', path)
  return render(
    <Router>
      <Shell />
    </Router>,
  )
}

beforeEach(() => {
  window.history.replaceState(null, '', '/')
})

describe('useRouteFocus', () => {
  it('leaves focus alone on the first load: the skip link stays first in the Tab order', async () => {
    renderAt('/analytics')
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument()
    expect(document.activeElement).toBe(document.body)
    await userEvent.setup().tab()
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toHaveFocus()
  })

  it('moves focus to the new screen’s h1 after following a navigation link', async () => {
    renderAt('/')
    const user = userEvent.setup()
    await user.click(screen.getByRole('link', { name: 'Analytics' }))
    expect(screen.getByRole('heading', { level: 1, name: 'Analytics Dashboard' })).toHaveFocus()
  })

  it('moves focus to the new screen’s h1 after following a link in the page', async () => {
    renderAt('/')
    const user = userEvent.setup()
    await user.click(screen.getByRole('link', { name: 'See the analytics' }))
    expect(screen.getByRole('heading', { level: 1, name: 'Analytics Dashboard' })).toHaveFocus()
  })

  it('moves focus after the browser’s Back', async () => {
    renderAt('/')
    const user = userEvent.setup()
    await user.click(screen.getByRole('link', { name: 'Analytics' }))
    await act(async () => {
      window.history.back()
      await new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }))
    })
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Home' })).toHaveFocus())
  })

  it('focuses main while a lazy screen loads, then its h1', async () => {
    renderAt('/')
    const user = userEvent.setup()
    await user.click(screen.getByRole('link', { name: 'Lazy' }))
    expect(screen.getByRole('status')).toHaveTextContent('Loading page…')
    expect(screen.getByRole('main')).toHaveFocus()
    await act(async () => arrive())
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Lazy page' })).toHaveFocus())
  })

  it('leaves focus on the field a new screen focused itself', async () => {
    renderAt('/')
    await userEvent.setup().click(screen.getByRole('link', { name: 'Analytics' }))
    await act(async () => navigate('/sign-in'))
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveFocus()
  })

  it('does not move focus when only the query string changes: the page keeps its own state and focus', async () => {
    renderAt('/analytics')
    const user = userEvent.setup()
    const trends = screen.getByRole('link', { name: 'Trends' })
    await user.click(trends)
    expect(window.location.search).toBe('?tab=trends')
    expect(trends).toHaveFocus()
  })

  it('does not move focus for an #anchor on the same page', async () => {
    renderAt('/')
    const user = userEvent.setup()
    const about = screen.getByRole('link', { name: 'About' })
    await user.click(about)
    expect(window.location.hash).toBe('#about')
    expect(about).toHaveFocus()
  })

  it('treats a redirect before the person did anything as part of the first load', async () => {
    renderAt('/account')
    expect(await screen.findByRole('heading', { level: 1, name: 'Analytics Dashboard' })).toBeInTheDocument()
    expect(window.location.pathname).toBe('/analytics')
    expect(document.activeElement).toBe(document.body)
  })
})
