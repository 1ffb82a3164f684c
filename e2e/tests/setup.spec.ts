import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '../support/test'
import { newPerson, signIn, skipTour } from '../support/accounts'
import { startFreshServer, type FreshServer } from '../support/fresh-server'

// A deployment nobody has set up: the server logs a one-time link, and whoever opens it creates the
// first organisation and its admin in the browser.
let server: FreshServer
test.beforeAll(async () => {
  server = await startFreshServer()
})
test.afterAll(() => server?.stop())
test.beforeEach(({ page }) => skipTour(page))
test.describe.configure({ mode: 'serial', timeout: 90_000 })

const ada = newPerson('setup', 'Ada Admin')

test('the logged setup link creates the first organisation and signs its admin in', async ({ page }) => {
  expect(server.setupUrl, 'the server logs a setup link on a new database').toMatch(new RegExp(`^${server.base}/setup/[\\w-]+$`))
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(server.setupUrl)
  await expect(page.getByRole('heading', { level: 1, name: 'Set up Journeyman XR' })).toBeVisible()
  const results = await new AxeBuilder({ page }).analyze()
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])

  // Nothing is sent until every field is right; the first wrong one has focus.
  await page.getByRole('button', { name: 'Create organisation' }).click()
  await expect(page.getByLabel('Organisation name')).toBeFocused()
  await expect(page.getByLabel('Organisation name')).toHaveAccessibleDescription(/Organisation name is required/)

  await page.getByLabel('Organisation name').fill('Northside Training Centre')
  await page.getByLabel('Your email').fill(ada.email)
  await page.getByLabel('Your name').fill(ada.name)
  await page.getByLabel('Password', { exact: true }).fill(ada.password)
  await page.getByRole('button', { name: 'Create organisation' }).press('Enter')

  // Signed in as the admin, on the page where the people come in.
  await expect(page).toHaveURL(`${server.base}/organisation?tab=invites`)
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Northside Training Centre')
  const menu = page.getByRole('navigation', { name: 'Main' }).getByTestId('account-menu-trigger')
  await expect(menu).toContainText('Ada Admin')
  await expect(menu).toContainText('Admin')
  await expect(page.getByRole('tab', { name: 'Invites', selected: true })).toBeVisible()
})

test('the link is spent: it says so, and the admin signs in as anyone does', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 })
  await page.goto(server.setupUrl)
  await expect(page.getByText('This deployment is set up already.')).toHaveText('This deployment is set up already. Sign in, or ask its admin for an invite.')
  await expect(page.getByRole('button', { name: 'Create organisation' })).toHaveCount(0)
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  expect(width, 'nothing wider than the phone').toBeLessThanOrEqual(375)
  await page.getByRole('link', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible()
  // No e-mail is sent: the sign-in page says where a new password comes from, opened by keyboard.
  const command = page.getByText('journeyman admin reset-password --email you@example.com')
  await expect(command).toBeHidden()
  await page.getByText('Forgot your password?').focus()
  await page.keyboard.press('Enter')
  await expect(command).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'the command wraps on a phone').toBeLessThanOrEqual(375)
  await signIn(page, server.base, ada, '/organisation')
  await expect(page).toHaveURL(`${server.base}/organisation`)
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Northside Training Centre')
})

test('Sign out everywhere asks first, then ends the account’s session in every browser', async ({ page, browser }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  const other = await browser.newContext({ viewport: { width: 375, height: 740 } })
  const phone = await other.newPage()
  try {
    await signIn(phone, server.base, ada, '/account')
    await expect(phone).toHaveURL(`${server.base}/account`)
    await signIn(page, server.base, ada, '/account')
    await expect(page).toHaveURL(`${server.base}/account`)

    const everywhere = page.getByRole('button', { name: 'Sign out everywhere' })
    await everywhere.click()
    const dialog = page.getByRole('alertdialog', { name: 'Sign out everywhere?' })
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(everywhere).toBeFocused()
    await expect(page).toHaveURL(`${server.base}/account`)

    await everywhere.click()
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click()
    await expect(page).not.toHaveURL(/\/account$/)
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' })).toBeVisible()
    // The phone's session ended too: the account page sends it to sign in.
    await phone.reload()
    await expect(phone).toHaveURL(/\/sign-in\?next=%2Faccount$/)
  } finally {
    await other.close()
  }
})
