import { Suspense, useEffect } from 'react'
import { useLocation } from 'wouter'
import { productName } from '@/content/navigation'
import { matchRoute } from '@/app/routes'
import { useIdentityWatch } from '@/hooks/use-identity-watch'
import { useRouteFocus } from '@/hooks/use-route-focus'

/** The document title for a screen. */
export function documentTitle(screen: string): string {
  return `${screen} | ${productName}`
}

/**
 * Shown while a screen's chunk loads. It fills the viewport so the footer
 * stays below the fold: a footer that showed here and was then pushed down by
 * the page would be a layout shift (Lighthouse measured CLS 0.42 on / with a
 * half-height placeholder).
 */
function PageLoading() {
  return (
    <div className="flex min-h-[calc(100svh-4rem)] items-center justify-center" role="status" aria-live="polite">
      <span className="sr-only">Loading page…</span>
      <span className="h-8 w-8 animate-spin rounded-full border-2 border-amber-400 border-t-transparent" aria-hidden="true" />
    </div>
  )
}

/** Renders the screen the route table gives for the current path. */
export function AppRouter() {
  const [location] = useLocation()
  const { route, params } = matchRoute(location)
  const title = route.title(params)
  const Page = route.page

  useEffect(() => {
    document.title = documentTitle(title)
  }, [title])

  // A new screen starts at its top, unless the address names an anchor.
  useEffect(() => {
    if (!window.location.hash) window.scrollTo(0, 0)
  }, [location])

  // Focus moves to the new screen's heading, so a keyboard or screen reader user knows it loaded.
  useRouteFocus(location)
  useIdentityWatch()

  return (
    <Suspense fallback={<PageLoading />}>
      <Page key={route.pattern} params={params} />
    </Suspense>
  )
}
