import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '../support/test'
import { fillSignUp, newPerson, signIn, skipTour, uniqueEmail } from '../support/accounts'
import { startFreshServer, type FreshServer } from '../support/fresh-server'

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

// Long flows with axe scans on a 2-core machine shared by several engineers.
test.describe.configure({ timeout: 120_000 })

let server: FreshServer
// Sign-ups are limited per address and per process (10 an hour), and every test here signs up from
// 127.0.0.1: a server per worker keeps the count within this spec's own tests.
test.beforeAll(async () => {
  server = await startFreshServer()
})
test.afterAll(() => server?.stop())
test.beforeEach(({ page }) => skipTour(page))

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' })
/** The account page's "Your training" card: sessions and preferences. */
const trainingCard = (page: Page) => page.getByRole('heading', { name: 'Your training' }).locator('xpath=ancestor::div[contains(@class, "rounded-xl")][1]')

test.describe('accounts', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test('sign up, see the account, sign out, sign in again', async ({ page }) => {
    const ada = newPerson('ada', 'Ada Lovelace')
    await page.goto(`${server.base}/`)
    await nav(page).getByRole('link', { name: 'Sign up' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible()
    // The policy is stated before anything is typed, and read with the field.
    await expect(page.getByLabel('Password', { exact: true })).toHaveAccessibleDescription(/At least 8 characters, and not a common password/)
    expect(await seriousViolations(page), 'sign-up page').toEqual([])

    await fillSignUp(page, ada)
    // Signed up from the home page's link: back to the home page.
    await expect(page).toHaveURL(`${server.base}/`)
    await expect(nav(page).getByTestId('account-menu-trigger')).toContainText('Ada Lovelace')
    await expect(nav(page).getByTestId('account-menu-trigger')).toContainText('Learner')

    await nav(page).getByTestId('account-menu-trigger').click()
    await page.getByRole('menuitem', { name: 'Account' }).click()
    await expect(page).toHaveURL(/\/account$/)
    const profile = page.locator('dl').first()
    await expect(profile).toContainText(ada.email)
    await expect(profile).toContainText('Learner')
    await expect(profile).toContainText('None (individual learner)')
    // Nothing personalized yet: the wizard's defaults are not this account's preferences.
    const training = trainingCard(page)
    await expect(training).toContainText('0 sessions')
    await expect(training).toContainText('Not set yet Personalize')
    // A learner has no organisation to manage.
    await nav(page).getByTestId('account-menu-trigger').click()
    await expect(page.getByRole('menuitem', { name: 'Organisation' })).toHaveCount(0)
    // The item the arrow keys reach stands out from the menu (WCAG 1.4.11: at least 3:1).
    await page.keyboard.press('ArrowDown')
    const highlighted = page.locator('[role="menuitem"][data-highlighted]')
    await expect(highlighted).toHaveCount(1)
    expect(await highlighted.evaluate(highlightContrast)).toBeGreaterThanOrEqual(3)
    await page.keyboard.press('Escape')
    expect(await seriousViolations(page), 'account page').toEqual([])

    // Rename, then sign out from the menu: the account page needs an account, so it goes home.
    await page.getByRole('textbox', { name: 'Display name' }).fill('Ada King')
    await page.getByRole('button', { name: 'Save name' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Your display name is saved.' })).toBeVisible()
    await expect(nav(page).getByTestId('account-menu-trigger')).toContainText('Ada King')
    // Focus stays on the button that saved, not dropped to the page's body while it was busy.
    await expect(page.getByRole('button', { name: 'Save name' })).toBeFocused()
    const newPassword = 'ada changes the long scaffold'
    await page.getByLabel('Current password').fill(ada.password)
    await page.getByLabel('New password').fill(newPassword)
    await page.getByRole('button', { name: 'Change password' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Your password is changed.' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Change password' })).toBeFocused()
    // The page leaves before the cache is reset: nothing of the account's is asked for again as a guest.
    const refused: string[] = []
    page.on('response', (r) => {
      if (r.status() >= 400) refused.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`)
    })
    await nav(page).getByTestId('account-menu-trigger').click()
    await page.getByRole('menuitem', { name: 'Sign out' }).click()
    await expect(page).toHaveURL(`${server.base}/`)
    await expect(nav(page).getByRole('link', { name: 'Sign in' })).toBeVisible()
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(refused).toEqual([])
    const me = await page.evaluate(async () => (await fetch('/api/me')).json())
    expect(me).toMatchObject({ guest: true, role: 'guest', email: null })

    await signIn(page, server.base, { ...ada, password: newPassword }, '/account')
    await expect(page).toHaveURL(/\/account$/)
    await expect(page.locator('dl').first()).toContainText('Ada King')
  })

  test('the server\'s field errors show on their fields; a taken email is refused', async ({ page }) => {
    const grace = newPerson('grace', 'Grace Hopper')
    await page.goto(`${server.base}/sign-up`)
    await fillSignUp(page, { ...grace, password: 'password' })
    const password = page.getByLabel('Password', { exact: true })
    await expect(password).toHaveAttribute('aria-invalid', 'true')
    await expect(password).toHaveAccessibleDescription(/Password is one of the most commonly used passwords/)
    await expect(password).toBeFocused()
    expect(await seriousViolations(page), 'sign-up with errors').toEqual([])

    await password.fill(grace.password)
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page).toHaveURL(/\/account$/)

    // Signed out, the same email cannot make a second account.
    await page.getByRole('button', { name: 'Sign out', exact: true }).click()
    await expect(page).toHaveURL(`${server.base}/`)
    await page.goto(`${server.base}/sign-up`)
    await fillSignUp(page, grace)
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByLabel('Email')).toHaveAccessibleDescription(/sign in/i)
  })

  test('a wrong password and an unknown email get the same message; a throttle says how long to wait', async ({ page }) => {
    const lin = newPerson('lin', 'Lin Wrong')
    await page.goto(`${server.base}/sign-up`)
    await fillSignUp(page, lin)
    await expect(page).toHaveURL(/\/account$/)
    await page.getByRole('button', { name: 'Sign out', exact: true }).click()
    await expect(page).toHaveURL(`${server.base}/`)

    await page.goto(`${server.base}/sign-in`)
    await page.getByLabel('Email').fill(lin.email)
    await page.getByLabel('Password', { exact: true }).fill('not the password at all')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('alert')).toHaveText('Email or password is incorrect.')
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('')

    await page.getByLabel('Email').fill(uniqueEmail('nobody'))
    await page.getByLabel('Password', { exact: true }).fill('not the password at all')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('alert')).toHaveText('Email or password is incorrect.')
    expect(await seriousViolations(page), 'sign-in with an error').toEqual([])

    // Use up this account's attempts, then one more through the form.
    await page.evaluate(async (email) => {
      for (let i = 0; i < 10; i++) {
        await fetch('/api/account/sign-in', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: 'wrong wrong' }) })
      }
    }, lin.email)
    await page.getByLabel('Email').fill(lin.email)
    await page.getByLabel('Password', { exact: true }).fill(lin.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('alert')).toHaveText(/^Too many attempts; try again in \d+ seconds?\.$/)
  })

  test('a guest opening /account signs in and comes back; next never leaves the site', async ({ page }) => {
    const kim = newPerson('kim', 'Kim Next')
    await page.goto(`${server.base}/sign-up`)
    await fillSignUp(page, kim)
    await expect(page).toHaveURL(/\/account$/)
    await page.getByRole('button', { name: 'Sign out', exact: true }).click()
    await expect(page).toHaveURL(`${server.base}/`)

    await page.goto(`${server.base}/account`)
    await expect(page).toHaveURL(`${server.base}/sign-in?next=%2Faccount`)
    await page.getByLabel('Email').fill(kim.email)
    await page.getByLabel('Password', { exact: true }).fill(kim.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page).toHaveURL(`${server.base}/account`)

    await page.getByRole('button', { name: 'Sign out', exact: true }).click()
    await expect(page).toHaveURL(`${server.base}/`)
    await signIn(page, server.base, kim, 'https://evil.example/steal')
    await expect(page).toHaveURL(`${server.base}/account`)
  })

  test('what a guest did moves into the account made at sign-up', async ({ page }) => {
    await page.goto(`${server.base}/personalization`)
    await page.getByRole('radio', { name: 'Welding', exact: true }).check()
    // Seven steps, saved on the last one's Next.
    for (let step = 1; step <= 7; step++) {
      await expect(page.getByText(`Step ${step} of 7`)).toBeVisible()
      await page.getByRole('button', { name: 'Next' }).click()
    }
    await expect(page.getByText('Your training is personalized')).toBeVisible()
    // And a training session started as the guest, the way the XR Training Center starts one.
    const started = await page.evaluate(async () => {
      const modules = (await (await fetch('/api/training-modules')).json()) as { id: string }[]
      const res = await fetch('/api/xr-sessions', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ moduleId: modules[0].id, sessionType: 'desktop', startedAt: new Date().toISOString() }),
      })
      return res.status
    })
    expect(started).toBe(201)

    await page.goto(`${server.base}/sign-up`)
    await fillSignUp(page, newPerson('guest', 'Gus Guest'))
    await expect(page).toHaveURL(/\/account$/)
    const training = trainingCard(page)
    await expect(training).toContainText('1 session')
    await expect(training).toContainText('Saved (primary trade: welding)')
  })
})

test('signing out from the sign-in page’s "you are signed in" notice puts focus on the form’s Email field', async ({ page }) => {
  await page.goto(`${server.base}/sign-up`)
  await fillSignUp(page, newPerson('notice', 'Nora Notice'))
  await expect(page).toHaveURL(/\/account$/)
  await page.goto(`${server.base}/sign-in`)
  await expect(page.getByText(/You are signed in as Nora Notice/)).toBeVisible()
  await page.getByRole('button', { name: 'Sign out' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByLabel('Email')).toBeFocused()
})

test.describe('navigation shows who is signed in', () => {
  test('at 1280 px: name and role with a menu; a guest sees Sign in and Sign up', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(`${server.base}/analytics`)
    await expect(nav(page).getByRole('link', { name: 'Sign in' })).toBeVisible()
    await expect(nav(page).getByRole('link', { name: 'Sign up' })).toBeVisible()
    await nav(page).getByRole('link', { name: 'Sign up' }).click()
    await expect(page).toHaveURL(/\/sign-up\?next=%2Fanalytics$/)
    await fillSignUp(page, newPerson('wide', 'Wendy Wide'))
    await expect(page).toHaveURL(/\/analytics$/)
    const trigger = nav(page).getByTestId('account-menu-trigger')
    await expect(trigger).toBeVisible()
    await expect(trigger).toHaveAccessibleName(/Wendy Wide.*Learner/)
    await trigger.press('Enter')
    await expect(page.getByRole('menuitem', { name: 'Account' })).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(trigger).toBeFocused()
    // Signing out by keyboard leaves focus where the menu was, on Sign in, not on the page's body.
    await trigger.press('Enter')
    await page.getByRole('menuitem', { name: 'Sign out' }).press('Enter')
    await expect(nav(page).getByRole('link', { name: 'Sign in' })).toBeFocused()
  })

  test('at 375 px: the menu panel shows the name and role, Account and Sign out', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 })
    await page.goto(`${server.base}/sign-up`)
    await fillSignUp(page, newPerson('narrow', 'Nina Narrow'))
    await expect(page).toHaveURL(/\/account$/)
    await page.getByRole('button', { name: 'Menu', exact: true }).click()
    const panel = page.getByTestId('mobile-menu')
    const account = panel.getByRole('region', { name: 'Your account' })
    await expect(account).toContainText('Nina Narrow')
    await expect(account).toContainText('Learner')
    // The panel fills the screen below the bar, so its links are really on screen.
    await expect(panel.getByRole('link', { name: 'Plumbing', exact: true }).or(panel.getByRole('button', { name: 'Industries' }))).toBeInViewport()
    await account.getByRole('button', { name: 'Sign out' }).click()
    await expect(page).toHaveURL(`${server.base}/`)
    await page.getByRole('button', { name: 'Menu', exact: true }).click()
    await expect(panel.getByRole('link', { name: 'Sign in' })).toBeVisible()
    await expect(panel.getByRole('link', { name: 'Sign up' })).toBeVisible()
  })
})

/**
 * The contrast ratio between a menu item's highlight and its menu's
 * background, as painted: the colours (oklch, with alpha) are composited on
 * a canvas and read back as sRGB.
 */
function highlightContrast(item: Element): number {
  const menu = item.closest('[role="menu"]')!
  const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!
  const paint = (...colours: string[]) => {
    ctx.clearRect(0, 0, 1, 1)
    for (const c of ['#020617', ...colours]) {
      ctx.fillStyle = c
      ctx.fillRect(0, 0, 1, 1)
    }
    const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data
    const lin = (v: number) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4)
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
  }
  const panel = getComputedStyle(menu).backgroundColor
  const [a, b] = [paint(panel), paint(panel, getComputedStyle(item).backgroundColor)]
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)
}
