import { readFileSync } from 'node:fs'
import { expect, test, type Browser, type BrowserContext, type Page } from '../support/test'
import { startFreshServer, type FreshServer } from '../support/fresh-server'
import { createAdminWithCLI, type StorageState } from '../support/staff'
import { passModuleVerified, tradeModules } from '../support/training'

/*
 * One tab walks every route of the app's route table (web/src/app/routes.ts)
 * by in-app navigation, in several orders, and fails on any page that shows a
 * load error or logs a console error. Each visit reuses the cache the pages
 * before it filled: that is how "The training catalog could not be loaded"
 * appeared on /industries/electrical after /xr-training.
 *
 * Only the first page of a walk is opened with page.goto. Every other one is
 * reached by clicking a link: the navigation bar (its Training, Industries
 * and account menus included), or a link on the page shown, going through
 * the page that links to it when the one shown does not. A route that no
 * link in the app reaches (listed in `unlinked`) is entered through the
 * router's history, as a link click would, still without a reload.
 * JOURNEY_LOG=1 prints each step and how the walk got there.
 */

const industries = ['electrical', 'plumbing', 'hvac', 'welding', 'construction', 'automotive', 'manufacturing']
const categories = ['technical', 'onboarding', 'safety', 'teamwork', 'troubleshooting', 'hazard-recognition']

/**
 * Routes no link of the app leads to; the walk enters them through
 * history.pushState. A certificate is linked only from its own learner's
 * account, and the verification pages from the printed certificate. The
 * portal's cohort, learner and review pages are linked from the portal page
 * before them, which the walk's order does not always visit first.
 */
const unlinked = new Set([
  '/voice-xr',
  '/welding-ar-demo',
  '/invite/:token',
  '/reset-password/:token',
  '/setup/:token',
  '/certificates/:id',
  '/verify',
  '/verify/:code',
  '/portal/cohorts/:id',
  '/portal/learners/:id',
  '/portal/learners/:id/sessions/:sessionid',
])

/** Routes a guest is sent away from, to sign in; only a signed-in account's menu links to them. */
const accountOnly = new Set(['/account', '/organisation', '/portal', '/portal/live', '/cmi5'])

/** The account menu's entry for each of accountOnly. */
const accountMenu: Record<string, string> = {
  '/account': 'Account',
  '/organisation': 'Organisation',
  '/portal': 'Portal',
  '/portal/live': 'Live view',
  '/cmi5': 'Courses',
}

/** Other routes a guest is sent away from, to sign in. */
const signInFirst = new Set(['/digital-twin/manage', '/certificates/:id', '/portal/cohorts/:id', '/portal/learners/:id', '/portal/learners/:id/sessions/:sessionid'])

/** Routes only a guest's navigation links to. */
const guestOnly = new Set(['/sign-in', '/sign-up'])

/** Pages that link to routes the navigation bar does not. */
const linkedFrom: Record<string, string> = {
  '/live-demo': '/',
  '/original': '/',
  '/digital-twin': '/original',
  '/personalization': '/original',
  ...Object.fromEntries(categories.map((c) => [`/training/${c}`, '/'])),
}

/** Pages that link to routes only staff are shown links to (a guest is sent to sign in). */
const staffLinkedFrom: Record<string, string> = { '/digital-twin/manage': '/digital-twin' }

/** What the app says when something could not be read or done. */
const loadError =
  /could not be loaded|could not load|could not look up|could not be saved|no XR scene to load|is unreachable|something went wrong|404 Page Not Found/i

/** The route table's patterns, read from the app's source so that a new route cannot be left out of the walk. */
function routeTablePatterns(): string[] {
  const source = readFileSync(new URL('../../web/src/app/routes.ts', import.meta.url), 'utf8')
  return [...source.matchAll(/pattern: '([^']+)'/g)].map((m) => m[1]).filter((p) => p !== '*')
}

/** Every concrete path of the route table, in its order; tokens are filled in by the walk. */
function routeTablePaths(): string[] {
  return routeTablePatterns().flatMap((p) => {
    if (p === '/industries/:industry') return industries.map((i) => `/industries/${i}`)
    if (p === '/training/:category') return categories.map((c) => `/training/${c}`)
    return [p]
  })
}

interface Walker {
  page: Page
  signedIn: boolean
  tokens: { invite: string; reset: string; certificate: string; code: string; cohort: string; learner: string; session: string }
  /** How each step got there, for the report. */
  steps: string[]
  /** Console errors and uncaught exceptions, with the page they came from. */
  errors: string[]
}

function concrete(w: Walker, route: string): string {
  if (route === '/certificates/:id') return `/certificates/${w.tokens.certificate}`
  if (route === '/verify/:code') return `/verify/${w.tokens.code}`
  if (route === '/portal/cohorts/:id') return `/portal/cohorts/${w.tokens.cohort}`
  if (route === '/portal/learners/:id') return `/portal/learners/${w.tokens.learner}`
  if (route === '/portal/learners/:id/sessions/:sessionid') return `/portal/learners/${w.tokens.learner}/sessions/${w.tokens.session}`
  // The walk's server is set up: any setup link, logged or not, shows that.
  if (route === '/setup/:token') return '/setup/spent-link'
  return route.replace(':token', route.startsWith('/invite') ? w.tokens.invite : w.tokens.reset)
}

const here = (page: Page) => new URL(page.url()).pathname

/** A visible link to path (exactly, or with a query or an anchor) inside scope. */
function linkTo(scope: Page | ReturnType<Page['locator']>, path: string) {
  return scope.locator(`a[href="${path}"], a[href^="${path}?"], a[href^="${path}#"]`).filter({ visible: true }).first()
}

async function clickLink(page: Page, link: ReturnType<Page['locator']>) {
  await link.scrollIntoViewIfNeeded()
  await link.click()
  // A dropdown opened on hover stays open while the pointer rests on it.
  await page.mouse.move(5, 700)
}

/** Clicks the navigation bar's way to path, if it has one. */
async function viaNavigation(w: Walker, path: string): Promise<boolean> {
  const { page } = w
  const nav = page.getByRole('navigation', { name: 'Main', exact: true })
  const direct = linkTo(nav, path)
  if ((await direct.count()) > 0) {
    await clickLink(page, direct)
    return true
  }
  for (const menu of ['Training', 'Industries']) {
    const trigger = nav.getByRole('button', { name: menu, exact: true })
    await trigger.click()
    const entry = linkTo(page.getByRole('list', { name: menu, exact: true }), path)
    if ((await entry.count()) > 0) {
      await clickLink(page, entry)
      return true
    }
    await trigger.click()
  }
  if (w.signedIn && accountOnly.has(path)) {
    await page.getByTestId('account-menu-trigger').click()
    await page.getByRole('menuitem', { name: accountMenu[path] }).click()
    return true
  }
  return false
}

/** Goes to route by in-app navigation; returns how. */
async function go(w: Walker, route: string): Promise<string> {
  const { page } = w
  const path = concrete(w, route)
  if (await viaNavigation(w, path)) return 'navigation'
  // The page's own links first, then the footer's (the policies, the platform's pages).
  let onPage = linkTo(page.locator('main'), path)
  if ((await onPage.count()) === 0) onPage = linkTo(page.getByRole('contentinfo'), path)
  if ((await onPage.count()) > 0) {
    const from = here(page)
    await clickLink(page, onPage)
    return `link on ${from}`
  }
  const from = linkedFrom[route] ?? (w.signedIn ? staffLinkedFrom[route] : undefined)
  if (from) {
    await go(w, from)
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
    const link = linkTo(page.locator('main'), path)
    await expect(link, `a link to ${path} on ${from}`).toHaveCount(1)
    await clickLink(page, link)
    return `link on ${from}`
  }
  const noLinkHere =
    unlinked.has(route) || ((accountOnly.has(route) || route in staffLinkedFrom) && !w.signedIn) || (guestOnly.has(route) && w.signedIn)
  if (!noLinkHere) throw new Error(`no link leads to ${route} from ${here(page)}`)
  await page.evaluate((p) => window.history.pushState(null, '', p), path)
  return 'history'
}

/** Waits until the page has loaded what it shows, then checks that nothing failed. */
async function expectLoaded(w: Walker, route: string) {
  const { page } = w
  const path = concrete(w, route)
  const arrived = (accountOnly.has(route) || signInFirst.has(route)) && !w.signedIn ? '/sign-in' : path
  await expect.poll(() => here(page), { message: `the walk reaches ${route}` }).toBe(arrived)
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 20_000 })
  await expect(page.getByRole('status').filter({ hasText: /Loading/ }), `${route} finishes loading`).toHaveCount(0, { timeout: 30_000 })
  await expect(page.locator('body').getByText(loadError), `${route} shows no load error`).toHaveCount(0)
  expect(w.errors, `console errors up to ${route}`).toEqual([])
}

async function walk(w: Walker, order: string[]) {
  const [first, ...rest] = order
  await w.page.goto(concrete(w, first))
  w.steps.push(`${first}: page.goto`)
  await expectLoaded(w, first)
  for (const route of rest) {
    const started = Date.now()
    const how = await go(w, route)
    w.steps.push(`${route}: ${how}`)
    await expectLoaded(w, route)
    if (process.env.JOURNEY_LOG) console.log(`${route}: ${how} (${Date.now() - started} ms)`)
  }
}

async function openWalker(browser: Browser, server: FreshServer, storageState: StorageState | undefined, tokens: Walker['tokens']) {
  const context: BrowserContext = await browser.newContext({ baseURL: server.base, viewport: { width: 1280, height: 800 }, storageState })
  // The home page's guided tour opens on a first visit and covers the page; this walker has taken it before.
  await context.addInitScript(() => localStorage.setItem('journeyman-tour-completed', 'true'))
  const page = await context.newPage()
  const w: Walker = { page, signedIn: !!storageState, tokens, steps: [], errors: [] }
  page.on('console', (m) => {
    if (m.type() === 'error') w.errors.push(`${here(page)}: ${m.text()}`)
  })
  page.on('pageerror', (e) => w.errors.push(`${here(page)}: uncaught ${e.message}`))
  return { context, w }
}

test.describe('a journey through every route in one tab', () => {
  test.describe.configure({ mode: 'serial' })
  // A step that cannot happen fails fast, naming the step, instead of running out the walk's time.
  test.use({ actionTimeout: 15_000 })
  // A whole walk takes a few minutes on a busy 2-core machine.
  test.setTimeout(6 * 60_000)

  let server: FreshServer
  let admin: StorageState
  let tokens: Walker['tokens']
  const routes = routeTablePaths()

  test.beforeAll(async ({ playwright }) => {
    // Training a certificate's modules takes a scene's real time.
    test.setTimeout(120_000)
    server = await startFreshServer()
    // An admin signs in with their setup link; a second admin's link stays unused for /reset-password/:token.
    const password = 'the journeyman walks every route'
    const setup = createAdminWithCLI(server, { email: 'walker@example.com', password, displayName: 'Walker Admin' }, 'Journey Works')
    const unused = createAdminWithCLI(server, { email: 'second@example.com', password, displayName: 'Second Admin' }, 'Second Works')
    const api = await playwright.request.newContext({ baseURL: server.base })
    expect((await api.get('/api/me')).status()).toBe(200)
    const signedIn = await api.post('/api/account/password-reset', { data: { token: setup, password } })
    expect(signedIn.status(), await signedIn.text()).toBe(200)
    const invite = await api.post('/api/organisation/invites', { data: { role: 'learner', expiresInDays: 7, maxUses: 5 } })
    expect(invite.status(), await invite.text()).toBe(201)
    const { url } = (await invite.json()) as { url: string }
    const inviteToken = url.slice(url.lastIndexOf('/') + 1)

    // A learner of the organisation earns a certificate, for /certificates/:id and /verify/:code: the
    // admin may read it, and a code or id that does not exist would be a 404 the console reports.
    const learner = await playwright.request.newContext({ baseURL: server.base })
    expect((await learner.get('/api/me')).status()).toBe(200)
    const joined = await learner.post('/api/account/sign-up', {
      data: { email: 'learner@example.com', password, displayName: 'Walker Learner', inviteToken },
    })
    expect(joined.status(), await joined.text()).toBe(201)
    const learnerId = ((await joined.json()) as { id: string }).id
    const modules = await tradeModules(learner, 'plumbing')
    const sessions = await Promise.all(modules.map((m) => passModuleVerified(learner, m.id)))
    await learner.dispose()
    // The learner in a cohort of the admin's, for the portal's pages.
    const cohort = await api.post('/api/cohorts', { data: { name: 'Walkers' } })
    expect(cohort.status(), await cohort.text()).toBe(201)
    const cohortId = ((await cohort.json()) as { id: string }).id
    const added = await api.post(`/api/cohorts/${cohortId}/members`, { data: { userId: learnerId } })
    expect(added.ok(), await added.text()).toBe(true)
    let certificate = { id: '', code: '' }
    for (const m of modules) {
      const res = await api.post(`/api/users/${learnerId}/competencies/sign-off`, { data: { moduleId: m.id } })
      expect(res.status(), await res.text()).toBe(200)
      const issued = ((await res.json()) as { certificate: { id: string; certificate: { code: string } } | null }).certificate
      if (issued) certificate = { id: issued.id, code: issued.certificate.code }
    }
    expect(certificate.id).not.toBe('')

    tokens = {
      invite: inviteToken,
      reset: unused,
      certificate: certificate.id,
      code: certificate.code,
      cohort: cohortId,
      learner: learnerId,
      session: sessions[0].id,
    }
    admin = await api.storageState()
    await api.dispose()
  })
  test.afterAll(() => server?.stop())

  test('the walk covers the whole route table', () => {
    expect(routes).toContain('/xr-training')
    expect(routes).toContain('/industries/electrical')
    expect(new Set(routes).size).toBe(routes.length)
    // A new route with a parameter needs its values here (as industries and categories have).
    expect(routes.filter((r) => r.includes(':') && !unlinked.has(r))).toEqual([])
    expect(routes.filter((r) => !unlinked.has(r)).length).toBeGreaterThan(25)
  })

  const orders: [name: string, signedIn: boolean, order: () => string[]][] = [
    ['in route-table order, signed in as an admin', true, () => routes],
    ['in reverse order, signed in as an admin', true, () => [...routes].reverse()],
    [
      'in a fixed shuffle as a guest, /xr-training straight to /industries/electrical',
      false,
      () => {
        const start = ['/learning-hub', '/xr-training', '/industries/electrical', '/training/safety', '/analytics', '/xr-training', '/training/technical']
        // The rest in a fixed scrambled order: every third route, then the ones between.
        const rest = routes.filter((r) => !start.includes(r))
        const scrambled = [0, 1, 2].flatMap((k) => rest.filter((_, i) => i % 3 === k).reverse())
        return [...start, ...scrambled]
      },
    ],
  ]

  for (const [name, signedIn, order] of orders) {
    test(name, async ({ browser }) => {
      const list = order()
      expect(new Set(list)).toEqual(new Set(routes))
      const { context, w } = await openWalker(browser, server, signedIn ? admin : undefined, tokens)
      try {
        await walk(w, list)
      } finally {
        test.info().annotations.push({ type: 'walk', description: w.steps.join('\n') })
        await context.close()
      }
    })
  }
})
