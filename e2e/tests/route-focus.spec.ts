import AxeBuilder from '@axe-core/playwright'
import { skipTour } from '../support/accounts'
import { expect, test, type Locator, type Page } from '../support/test'

// Focus after a client-side route change (web/src/hooks/use-route-focus.ts)
// and the mobile menu's focus trap (web/src/components/navigation.tsx).

const DESKTOP = { width: 1280, height: 800 }
const PHONE = { width: 375, height: 740 }

test.beforeEach(({ page }) => skipTour(page))

/** A short description of the focused element, for messages. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement
    if (!el || el === document.body) return 'body'
    return `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`
  })
}

/** Presses Tab until `target` has focus, as a keyboard user would reach it. */
async function tabTo(page: Page, target: Locator, max = 40) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab')
    if (await target.evaluate((el) => el === document.activeElement)) return
  }
  throw new Error(`Tab did not reach the target in ${max} presses; focus is on ${await focused(page)}`)
}

async function loaded(page: Page, path: string) {
  await page.goto(path)
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
}

/** The h1 of the main landmark. */
const mainHeading = (page: Page) => page.locator('#main-content h1').first()

test.describe('at 1280 px', () => {
  test.use({ viewport: DESKTOP })

  test('the first load leaves focus alone: the skip link is the first Tab stop', async ({ page }) => {
    await loaded(page, '/')
    expect(await focused(page)).toBe('body')
    await page.keyboard.press('Tab')
    await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused()
  })

  test('following a navigation link by keyboard focuses the new page’s h1, quietly, and Tab goes on from there', async ({ page }) => {
    await loaded(page, '/')
    const nav = page.getByRole('navigation', { name: 'Main' })
    await tabTo(page, nav.getByRole('link', { name: 'Analytics' }))
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/analytics$/)
    const heading = page.getByRole('heading', { level: 1, name: 'Analytics Dashboard' })
    // The analytics page loads lazily: focus waits on main, then reaches its heading.
    await expect(heading).toBeFocused()
    await expect(page).toHaveTitle(/^Analytics Dashboard \| /)
    // Focused by script, the heading draws no focus ring.
    expect(await heading.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('none')
    // The next Tab stop is in the page, after the heading, not back at the top of the navigation.
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => !!document.activeElement?.closest('#main-content'))).toBe(true)
  })

  test('a dropdown choice focuses the new page’s h1 too', async ({ page }) => {
    await loaded(page, '/')
    const trigger = page.getByRole('button', { name: 'Industries', exact: true })
    await tabTo(page, trigger)
    await page.keyboard.press('Enter')
    await tabTo(page, page.getByRole('list', { name: 'Industries' }).getByRole('link', { name: 'Plumbing', exact: true }), 10)
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/industries\/plumbing$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Plumbing Training' })).toBeFocused()
  })

  test('following a link inside the page focuses the next page’s h1', async ({ page }) => {
    await loaded(page, '/industries/electrical')
    const crumb = page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Home' })
    await tabTo(page, crumb)
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/$/)
    await expect(mainHeading(page)).toBeFocused()
    await page.getByRole('link', { name: 'Start XR Training Now' }).click()
    await expect(page).toHaveURL(/\/xr-training$/)
    await expect(page.getByRole('heading', { level: 1, name: 'XR Training Center' })).toBeFocused()
  })

  test('Back focuses the previous page’s h1', async ({ page }) => {
    await loaded(page, '/learning-hub')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Analytics Dashboard' })).toBeFocused()
    await page.goBack()
    await expect(page.getByRole('heading', { level: 1, name: 'Learning Hub' })).toBeFocused()
  })

  test('a link to an anchor on the same page does not move focus to the h1', async ({ page }) => {
    await loaded(page, '/original')
    const toVideo = page.locator('a[href="#video-showcase"]').first()
    await tabTo(page, toVideo, 60)
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/#video-showcase$/)
    await page.waitForTimeout(500)
    await expect(mainHeading(page)).not.toBeFocused()
    await expect(toVideo).toBeFocused()

    // The navigation's About on the home page scrolls to the section and leaves focus on the link.
    await loaded(page, '/')
    const about = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' })
    await tabTo(page, about)
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/#about$/)
    await page.waitForTimeout(500)
    await expect(about).toBeFocused()
  })

  test('About from another page focuses the About section it scrolls to', async ({ page }) => {
    await loaded(page, '/analytics')
    await tabTo(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }))
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/#about$/)
    const section = page.locator('#about')
    await expect(section).toBeFocused()
    await expect(section).toBeInViewport()
    await expect(mainHeading(page)).not.toBeInViewport()
  })

  test('a page that moves focus itself keeps it', async ({ page }) => {
    // The verify form's Verify opens /verify/{code}, whose verdict takes focus once known.
    await loaded(page, '/verify')
    await page.getByRole('textbox', { name: /Certificate code/ }).fill('JXR-AAAA-BBBB-CCCC')
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/verify\/JXR-AAAA-BBBB-CCCC$/i)
    await expect(page.locator('#main-content h2, #main-content h3').and(page.locator(':focus'))).toHaveCount(1)
    await expect(mainHeading(page)).not.toBeFocused()
  })
})

test.describe('the menu at 375 px', () => {
  test.use({ viewport: PHONE })

  const toggle = (page: Page) => page.getByRole('button', { name: 'Menu', exact: true })
  const panel = (page: Page) => page.getByTestId('mobile-menu')

  /** Opens the menu from the keyboard: Tab to the menu button, Enter. */
  async function openByKeyboard(page: Page) {
    await tabTo(page, page.getByRole('button', { name: 'Menu', exact: true }), 10)
    await page.keyboard.press('Enter')
    await expect(panel(page)).toBeVisible()
    await expect(toggle(page)).toHaveAttribute('aria-expanded', 'true')
    await expect(toggle(page)).toHaveAttribute('aria-controls', (await panel(page).getAttribute('id'))!)
  }

  /** Where focus is: in the panel, on the menu button, or elsewhere (described). */
  function place(page: Page) {
    return page.evaluate(() => {
      const el = document.activeElement
      const menu = document.querySelector('[data-testid="mobile-menu"]')
      if (el && menu?.contains(el)) return 'panel'
      if (el?.getAttribute('aria-controls') === menu?.id) return 'toggle'
      return `outside: ${el === document.body ? 'body' : `${el?.tagName} ${el?.textContent?.trim().slice(0, 30)}`}`
    })
  }

  test('Tab and Shift+Tab go round the open menu and its button, never to the page behind', async ({ page }) => {
    await loaded(page, '/analytics')
    await openByKeyboard(page)
    const seen: string[] = []
    let toggleVisits = 0
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab')
      const where = await place(page)
      seen.push(where)
      if (where === 'toggle') toggleVisits++
    }
    expect(seen.filter((w) => w.startsWith('outside'))).toEqual([])
    // It went round: past the last link back to the button, more than once.
    expect(toggleVisits).toBeGreaterThanOrEqual(2)
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('Shift+Tab')
      seen.push(await place(page))
    }
    expect(seen.filter((w) => w.startsWith('outside'))).toEqual([])
    // From the button, Shift+Tab goes round to the panel's last link.
    await toggle(page).focus()
    await page.keyboard.press('Shift+Tab')
    await expect(panel(page).getByRole('link', { name: 'View Demo' })).toBeFocused()
    // The page behind is out of a screen reader's reach too.
    expect(await page.locator('#main-content').evaluate((el) => (el as HTMLElement).inert)).toBe(true)
  })

  test('Escape closes the menu and focuses its button', async ({ page }) => {
    await loaded(page, '/analytics')
    await openByKeyboard(page)
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    expect(await place(page)).toBe('panel')
    await page.keyboard.press('Escape')
    await expect(panel(page)).toBeHidden()
    await expect(page.getByRole('button', { name: 'Menu', exact: true })).toBeFocused()
    await expect(toggle(page)).toHaveAttribute('aria-expanded', 'false')
    expect(await page.locator('#main-content').evaluate((el) => (el as HTMLElement).inert)).toBe(false)
    // Closed, Tab leaves the button for the page again.
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => !!document.activeElement?.closest('#main-content, footer'))).toBe(true)
  })

  test('choosing a link closes the menu, goes there and focuses the new page’s h1', async ({ page }) => {
    await loaded(page, '/analytics')
    await openByKeyboard(page)
    await tabTo(page, panel(page).getByRole('link', { name: /Learning Hub/ }), 20)
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/learning-hub$/)
    await expect(panel(page)).toBeHidden()
    await expect(page.getByRole('heading', { level: 1, name: 'Learning Hub' })).toBeFocused()
    expect(await page.evaluate(() => document.body.style.overflow)).toBe('')
  })

  test('choosing the page already shown closes the menu and gives focus back to its button', async ({ page }) => {
    await loaded(page, '/')
    await openByKeyboard(page)
    await tabTo(page, panel(page).getByRole('link', { name: 'Home', exact: true }), 20)
    await page.keyboard.press('Enter')
    await expect(panel(page)).toBeHidden()
    await expect(page.getByRole('button', { name: 'Menu', exact: true })).toBeFocused()
  })

  test('axe finds no serious or critical violation with the menu open', async ({ page }) => {
    await loaded(page, '/analytics')
    await openByKeyboard(page)
    await panel(page).getByRole('button', { name: 'Training' }).click()
    const results = await new AxeBuilder({ page }).analyze()
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
    expect(serious).toEqual([])
  })
})
