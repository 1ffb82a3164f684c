import AxeBuilder from '@axe-core/playwright'
import { expect, test, type APIRequestContext, type Page } from '../support/test'

// /industries/{industry} and /training/{category}: pages the spec links to
// but does not show, built from the catalog (GET /api/training-modules and
// GET /api/trade-categories).

interface CatalogModule {
  id: string
  tradeId: string
  title: string
  difficulty: string
  estimatedDuration: number
  categories: string[]
}
interface Trade {
  id: string
  name: string
  certifications: string[]
}

async function catalog(request: APIRequestContext) {
  const modules = (await (await request.get('/api/training-modules')).json()) as CatalogModule[]
  const trades = (await (await request.get('/api/trade-categories')).json()) as Trade[]
  return { modules, trades }
}

function minutes(n: number) {
  if (n < 60) return `${n} min`
  return n % 60 ? `${Math.floor(n / 60)} h ${n % 60} min` : `${n / 60} h`
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

const industries = [
  ['electrical', 'Electrical'],
  ['plumbing', 'Plumbing'],
  ['hvac', 'HVAC'],
  ['welding', 'Welding'],
  ['construction', 'Construction'],
  ['automotive', 'Automotive'],
  ['manufacturing', 'Manufacturing'],
] as const

const categories = [
  ['technical', 'Technical Skills'],
  ['onboarding', 'Onboarding'],
  ['safety', 'Safety Training'],
  ['teamwork', 'Teamwork'],
  ['troubleshooting', 'Troubleshooting'],
  ['hazard-recognition', 'Hazard Recognition'],
] as const

test.describe('industry pages', () => {
  for (const [slug, label] of industries) {
    test(`/industries/${slug} lists the trade's modules, difficulty, duration and certifications`, async ({ page, request }) => {
      const { modules, trades } = await catalog(request)
      const own = modules.filter((m) => m.tradeId === slug)
      const trade = trades.find((t) => t.id === slug)!
      expect(own.length).toBeGreaterThan(0)

      await page.goto(`/industries/${slug}`)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${label} Training`)
      await expect(page.getByTestId('industry-module-count')).toHaveText(String(own.length))
      await expect(page.getByTestId('certifications').getByRole('listitem')).toHaveText(trade.certifications)

      const cards = page.getByTestId('module-card')
      await expect(cards).toHaveCount(own.length)
      for (const [i, m] of own.entries()) {
        const card = cards.nth(i)
        await expect(card.getByRole('heading')).toHaveText(m.title)
        await expect(card).toContainText(`Difficulty: ${capitalized(m.difficulty)}`)
        await expect(card).toContainText(`Duration: ${minutes(m.estimatedDuration)}`)
        await expect(card.getByRole('link', { name: `Start ${m.title}` })).toHaveAttribute('href', `/xr-training?module=${m.id}`)
      }
    })
  }

  test('Start opens the XR Training Center with that module chosen', async ({ page, request }) => {
    const { modules } = await catalog(request)
    const second = modules.filter((m) => m.tradeId === 'hvac')[1]
    await page.goto('/industries/hvac')
    await page.getByRole('link', { name: `Start ${second.title}` }).click()
    await expect(page).toHaveURL(new RegExp(`/xr-training\\?module=${second.id}$`))
  })

  test('the difficulty filter narrows the list, from the keyboard too', async ({ page, request }) => {
    const { modules } = await catalog(request)
    const own = modules.filter((m) => m.tradeId === 'electrical')
    await page.goto('/industries/electrical')
    const cards = page.getByTestId('module-card')
    await expect(cards).toHaveCount(own.length)
    const filters = page.getByRole('group', { name: 'Filter by difficulty' })
    await filters.getByRole('button', { name: 'Advanced' }).focus()
    await page.keyboard.press('Enter')
    await expect(filters.getByRole('button', { name: 'Advanced' })).toHaveAttribute('aria-pressed', 'true')
    await expect(cards).toHaveCount(own.filter((m) => m.difficulty === 'advanced').length)
    await filters.getByRole('button', { name: 'Beginner' }).click()
    await expect(cards).toHaveCount(own.filter((m) => m.difficulty === 'beginner').length)
    await filters.getByRole('button', { name: 'All levels' }).click()
    await expect(cards).toHaveCount(own.length)
  })

  test("a module's category chip leads to that category page", async ({ page }) => {
    await page.goto('/industries/welding')
    await page.getByTestId('module-card').first().getByRole('link', { name: 'Safety Training' }).click()
    await expect(page).toHaveURL(/\/training\/safety$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Safety Training')
  })

  test('Request a Team Demo opens the demo form about this industry', async ({ page }) => {
    await page.goto('/industries/plumbing')
    await page.getByRole('button', { name: 'Request a Team Demo' }).click()
    const dialog = page.getByRole('dialog', { name: 'Request a Plumbing Demo' })
    await expect(dialog.getByLabel('Area of interest (optional)')).toHaveValue('plumbing')
    await dialog.getByLabel('Your name').fill('Pat Fitter')
    await dialog.getByLabel('Work email').fill('pat@ua-local.org')
    await dialog.getByLabel('Organisation').fill('UA Local 5')
    await dialog.getByLabel('Message').fill('We would like to see the backflow testing module.')
    await dialog.getByRole('button', { name: 'Send request' }).click()
    await expect(page.getByRole('dialog', { name: 'Request received' })).toBeVisible()
    const stored = await (await page.request.get('/api/demo-requests')).json()
    expect(stored[0]).toMatchObject({ organisation: 'UA Local 5', interest: 'plumbing' })
  })

  test('a catalog that cannot be read says so, and Try again recovers', async ({ page }) => {
    let fail = true
    await page.route('**/api/training-modules', (route) => (fail ? route.fulfill({ status: 500, body: 'boom' }) : route.fallback()))
    await page.goto('/industries/electrical')
    await expect(page.getByRole('alert')).toContainText('The training catalog could not be loaded.')
    fail = false
    await page.getByRole('button', { name: 'Try again' }).click()
    await expect(page.getByTestId('module-card').first()).toBeVisible()
  })

  test('an unknown industry is the 404 page', async ({ page }) => {
    await page.goto('/industries/astronomy')
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible()
  })
})

test.describe('training category pages', () => {
  for (const [slug, label] of categories) {
    test(`/training/${slug} lists the category's modules by trade with certifications`, async ({ page, request }) => {
      const { modules, trades } = await catalog(request)
      const own = modules.filter((m) => m.categories.includes(slug))
      const tradeIds = trades.map((t) => t.id).filter((id) => own.some((m) => m.tradeId === id))
      expect(own.length).toBeGreaterThan(0)

      await page.goto(`/training/${slug}`)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(label)
      await expect(page.getByTestId('category-summary')).toHaveText(`${own.length} modules across ${tradeIds.length} trades`)
      const groups = page.getByTestId('trade-group')
      await expect(groups).toHaveCount(tradeIds.length)
      const first = trades.find((t) => t.id === tradeIds[0])!
      await expect(groups.first().getByRole('heading', { level: 2 })).toHaveText(first.name)
      await expect(groups.first()).toContainText(first.certifications.join(' · '))
      const firstModule = own.find((m) => m.tradeId === first.id)!
      const card = groups.first().getByTestId('module-card').first()
      await expect(card.getByRole('heading')).toHaveText(firstModule.title)
      await expect(card).toContainText(`Duration: ${minutes(firstModule.estimatedDuration)}`)
      await expect(page.getByTestId('module-card')).toHaveCount(own.length)
    })
  }

  test('Start on a category page opens the XR Training Center with the module', async ({ page, request }) => {
    const { modules } = await catalog(request)
    const m = modules.find((x) => x.categories.includes('teamwork'))!
    await page.goto('/training/teamwork')
    await page.getByRole('link', { name: `Start ${m.title}` }).click()
    await expect(page).toHaveURL(new RegExp(`/xr-training\\?module=${m.id}$`))
  })

  test('the category strip moves between categories', async ({ page }) => {
    await page.goto('/training/technical')
    const strip = page.getByRole('navigation', { name: 'Other training categories' })
    // The page's own category is named and marked current, not a link to itself.
    await expect(strip.getByText('Technical Skills')).toHaveAttribute('aria-current', 'page')
    await expect(strip.getByRole('link')).toHaveText(categories.filter(([slug]) => slug !== 'technical').map(([, label]) => label))
    await strip.getByRole('link', { name: 'Hazard Recognition' }).click()
    await expect(page).toHaveURL(/\/training\/hazard-recognition$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hazard Recognition')
  })

  test("no link on a category's page leads to the page itself: its cards leave out its chip and show the others as text", async ({ page, request }) => {
    const { modules } = await catalog(request)
    const own = modules.filter((m) => m.categories.includes('safety'))
    await page.goto('/training/safety')
    const cards = page.getByTestId('module-card')
    await expect(cards).toHaveCount(own.length)
    // (The footer's Platform list names this page, "Safety Training", as text here: a link elsewhere.)
    await expect(page.getByRole('main').getByRole('link', { name: 'Safety Training' })).toHaveCount(0)
    await expect(page.locator('a[href="/training/safety"]')).toHaveCount(0)
    await expect(page.getByRole('contentinfo').getByText('Safety Training', { exact: true })).toHaveAttribute('aria-current', 'page')
    // A card's other categories are read as a list of text, with no link.
    const mixed = own.findIndex((m) => m.categories.length > 1)
    expect(mixed).toBeGreaterThanOrEqual(0)
    const others = own[mixed].categories.filter((c) => c !== 'safety').map((c) => categories.find(([slug]) => slug === c)![1])
    await expect(cards.nth(mixed).getByRole('list', { name: 'Also in' }).getByRole('listitem')).toHaveText(others)
    for (const [i, m] of own.entries()) await expect(cards.nth(i).getByRole('link'), m.id).toHaveCount(1)
  })

  test("by keyboard, each card on a category's page is one stop: Tab goes from one Start to the next", async ({ page, request }) => {
    const { modules } = await catalog(request)
    const own = modules.filter((m) => m.categories.includes('safety'))
    await page.goto('/training/safety')
    const cards = page.getByTestId('module-card')
    await expect(cards).toHaveCount(own.length)
    // Tab from the strip's last link reaches the first card's Start, then each next card's, in catalog order by trade.
    await page.getByRole('navigation', { name: 'Other training categories' }).getByRole('link').last().focus()
    const shown = await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-module-id')))
    for (const id of shown.slice(0, 6)) {
      await page.keyboard.press('Tab')
      const title = own.find((m) => m.id === id)!.title
      await expect(page.getByRole('link', { name: `Start ${title}` })).toBeFocused()
    }
  })

  test('an unknown category is the 404 page', async ({ page }) => {
    await page.goto('/training/juggling')
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible()
  })
})

test.describe('accessibility', () => {
  function serious(results: Awaited<ReturnType<AxeBuilder['analyze']>>) {
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  }
  async function ready(page: Page, path: string) {
    await page.goto(path)
    await expect(page.getByTestId('module-card').first()).toBeVisible()
  }

  test('axe finds no serious or critical violation on an industry page', async ({ page }) => {
    await ready(page, '/industries/electrical')
    expect(serious(await new AxeBuilder({ page }).analyze())).toEqual([])
  })

  test('axe finds no serious or critical violation on a training category page', async ({ page }) => {
    await ready(page, '/training/hazard-recognition')
    expect(serious(await new AxeBuilder({ page }).analyze())).toEqual([])
  })
})
