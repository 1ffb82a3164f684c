import { lazy, type ComponentType, type LazyExoticComponent } from 'react'
import { industries, trainingCategories } from '@/content/navigation'
import type { PageProps } from '@/lib/page'
// The home page is the landing of most visits: it ships in the first bundle,
// not behind one more round trip; every other page loads on demand.
import HomePage from '@/features/home/page'

export type { PageProps }

type Page = LazyExoticComponent<ComponentType<PageProps>> | ComponentType<PageProps>

/** One line of the route table (spec 000 §2). */
export interface RouteDef {
  /** A path with optional `:name` segments, always lower case, without a trailing slash. */
  pattern: string
  /** The screen's name, used for the document title. */
  title: (params: Record<string, string>) => string
  /** Allowed values per parameter; anything else is a 404. */
  allowed?: Record<string, readonly string[]>
  /** Parameters passed as typed rather than lower-cased: tokens are case-sensitive. */
  keepCase?: readonly string[]
  /** Only for a signed-in account (useRequireAccount): a guest is sent to sign in, and signing out here leads home. */
  account?: true
  page: Page
}

const industryNames = Object.fromEntries(industries.map((i) => [i.slug, i.label]))
const categoryNames = Object.fromEntries(trainingCategories.map((c) => [c.slug, c.label]))

/** 'Safety Training' stays as it is; 'Teamwork' becomes 'Teamwork Training'. */
function trainingTitle(label: string): string {
  return /\bTraining$/.test(label) ? label : `${label} Training`
}

/** The route table: every screen of spec 000 §2, each page in its own chunk. */
export const routes: readonly RouteDef[] = [
  { pattern: '/', title: () => 'Immersive XR Training for the Skilled Trades', page: HomePage },
  { pattern: '/ai-learning-paths', title: () => 'AI Learning Paths', page: lazy(() => import('@/features/ai-learning-paths/page')) },
  { pattern: '/digital-twin', title: () => 'Digital Twin Equipment', page: lazy(() => import('@/features/digital-twin/page')) },
  { pattern: '/digital-twin/manage', account: true, title: () => 'Manage Equipment', page: lazy(() => import('@/features/digital-twin/manage-page')) },
  { pattern: '/demo', title: () => 'Interactive Skills Training Demo', page: lazy(() => import('@/features/demo/page')) },
  { pattern: '/voice-xr', title: () => 'Voice-Activated Training', page: lazy(() => import('@/features/voice-xr/page')) },
  { pattern: '/personalization', title: () => 'Personalization', page: lazy(() => import('@/features/personalization/page')) },
  { pattern: '/analytics', title: () => 'Analytics Dashboard', page: lazy(() => import('@/features/analytics/page')) },
  { pattern: '/learning-hub', title: () => 'Learning Hub', page: lazy(() => import('@/features/learning-hub/page')) },
  { pattern: '/unity-unreal', title: () => 'Unity & Unreal Integration', page: lazy(() => import('@/features/unity-unreal/page')) },
  { pattern: '/welding-ar-demo', title: () => 'AR Welding Simulator', page: lazy(() => import('@/features/welding-ar-demo/page')) },
  { pattern: '/advanced', title: () => 'Advanced Features', page: lazy(() => import('@/features/advanced/page')) },
  { pattern: '/xr-training', title: () => 'XR Training Center', page: lazy(() => import('@/features/xr-training/page')) },
  { pattern: '/live-demo', title: () => 'Live XR Demo', page: lazy(() => import('@/features/live-demo/page')) },
  { pattern: '/sign-in', title: () => 'Sign in', page: lazy(() => import('@/features/account/sign-in-page')) },
  { pattern: '/sign-up', title: () => 'Create your account', page: lazy(() => import('@/features/account/sign-up-page')) },
  { pattern: '/account', account: true, title: () => 'Your account', page: lazy(() => import('@/features/account/account-page')) },
  { pattern: '/invite/:token', title: () => 'Invitation', keepCase: ['token'], page: lazy(() => import('@/features/account/invite-page')) },
  {
    pattern: '/reset-password/:token',
    title: () => 'Set a new password',
    keepCase: ['token'],
    page: lazy(() => import('@/features/account/reset-password-page')),
  },
  { pattern: '/setup/:token', title: () => 'Set up Journeyman XR', keepCase: ['token'], page: lazy(() => import('@/features/account/setup-page')) },
  { pattern: '/cmi5', account: true, title: () => 'Courses', page: lazy(() => import('@/features/cmi5/page')) },
  { pattern: '/organisation', account: true, title: () => 'Organisation', page: lazy(() => import('@/features/organisation/page')) },
  { pattern: '/portal', account: true, title: () => 'Portal', page: lazy(() => import('@/features/portal/page')) },
  { pattern: '/portal/live', account: true, title: () => 'Live view · Portal', page: lazy(() => import('@/features/portal/live-page')) },
  // Ids are passed as typed: the server's are lower-case hex today, but an id is the server's to spell.
  { pattern: '/portal/cohorts/:id', account: true, title: () => 'Cohort · Portal', keepCase: ['id'], page: lazy(() => import('@/features/portal/cohort-page')) },
  { pattern: '/portal/learners/:id', account: true, title: () => 'Learner · Portal', keepCase: ['id'], page: lazy(() => import('@/features/portal/learner-page')) },
  {
    pattern: '/portal/learners/:id/sessions/:sessionid',
    account: true,
    title: () => 'Session review · Portal',
    keepCase: ['id', 'sessionid'],
    page: lazy(() => import('@/features/portal/session-review-page')),
  },
  { pattern: '/original', title: () => 'Unlock Your Potential with Immersive XR Training', page: lazy(() => import('@/features/landing/page')) },
  // Certificate ids are the server's to spell; a code is read forgivingly by the server but shown as typed.
  { pattern: '/certificates/:id', account: true, title: () => 'Certificate', keepCase: ['id'], page: lazy(() => import('@/features/certificates/certificate-page')) },
  { pattern: '/privacy', title: () => 'Privacy Policy', page: lazy(() => import('@/features/legal/privacy-page')) },
  { pattern: '/terms', title: () => 'Terms of Service', page: lazy(() => import('@/features/legal/terms-page')) },
  { pattern: '/security', title: () => 'Security', page: lazy(() => import('@/features/legal/security-page')) },
  { pattern: '/verify', title: () => 'Verify a certificate', page: lazy(() => import('@/features/certificates/verify-page')) },
  { pattern: '/verify/:code', title: () => 'Verify a certificate', keepCase: ['code'], page: lazy(() => import('@/features/certificates/verify-page')) },
  {
    pattern: '/industries/:industry',
    title: (p) => `${industryNames[p.industry] ?? 'Industry'} Training`,
    allowed: { industry: industries.map((i) => i.slug) },
    page: lazy(() => import('@/features/industries/page')),
  },
  {
    pattern: '/training/:category',
    title: (p) => trainingTitle(categoryNames[p.category] ?? 'Training'),
    allowed: { category: trainingCategories.map((c) => c.slug) },
    page: lazy(() => import('@/features/training-categories/page')),
  },
]

/** The page for any path the table does not know. */
export const notFoundRoute: RouteDef = {
  pattern: '*',
  title: () => '404 Page Not Found',
  page: lazy(() => import('@/features/not-found/page')),
}

/** A route chosen for a path, with its parameters. */
export interface RouteMatch {
  route: RouteDef
  params: Record<string, string>
}

/**
 * Lower-cases a pathname and drops one trailing slash, so `/XR-Training/`
 * and `/xr-training` name the same screen.
 */
export function normalizePath(pathname: string): string {
  return casedPath(pathname).toLowerCase()
}

/** normalizePath without the lower-casing. */
function casedPath(pathname: string): string {
  let path = pathname.split(/[?#]/, 1)[0] || '/'
  try {
    path = decodeURIComponent(path)
  } catch {
    // A malformed escape cannot name any route; keep it as typed so it 404s.
  }
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1)
  return path
}

function matchPattern(route: RouteDef, path: string, cased: string): Record<string, string> | null {
  const want = route.pattern.split('/')
  const got = path.split('/')
  if (want.length !== got.length) return null
  const typed = cased.split('/')
  const params: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) {
      const name = want[i].slice(1)
      if (got[i] === '') return null
      const allowed = route.allowed?.[name]
      if (allowed && !allowed.includes(got[i])) return null
      params[name] = route.keepCase?.includes(name) ? typed[i] : got[i]
    } else if (want[i] !== got[i]) {
      return null
    }
  }
  return params
}

/** Finds the screen for a pathname (case-insensitive, trailing slash tolerated), or the 404 page. */
export function matchRoute(pathname: string): RouteMatch {
  const cased = casedPath(pathname)
  const path = cased.toLowerCase()
  for (const route of routes) {
    const params = matchPattern(route, path, cased)
    if (params) return { route, params }
  }
  return { route: notFoundRoute, params: {} }
}

/** Whether the page at pathname is only for a signed-in account. */
export function needsAccount(pathname: string): boolean {
  return matchRoute(pathname).route.account === true
}
