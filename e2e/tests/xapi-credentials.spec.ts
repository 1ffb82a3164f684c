import AxeBuilder from '@axe-core/playwright'
import { expect, test, type APIRequestContext, type Page } from '../support/test'
import { createAdmin, newPerson, setPasswordWithLink, signIn, skipTour, type Person } from '../support/accounts'
import { startFreshServer, type FreshServer } from '../support/fresh-server'

// An admin makes a key for an xAPI client on the organisation page, the
// client reaches the LRS with it, and after a revoke it no longer does.

let server: FreshServer
let admin: Person

test.beforeAll(async () => {
  server = await startFreshServer()
  admin = newPerson('xapi-admin', 'Lara LRS')
  await setPasswordWithLink(server, createAdmin(server, { email: admin.email, org: 'xAPI Trade School', name: admin.name }), admin.password)
})
test.afterAll(() => server?.stop())
test.beforeEach(({ page }) => skipTour(page))

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

/** Creates a credential on the open xAPI tab (read and write unless readOnly) and returns the key and secret the page shows once. */
async function createCredential(page: Page, name: string, readOnly = false): Promise<{ key: string; secret: string }> {
  const form = page.getByRole('form', { name: 'Create an xAPI credential' })
  await form.getByLabel('Name').fill(name)
  await expect(form.getByLabel('Read statements and documents')).toBeChecked()
  await expect(form.getByLabel('Write statements and documents')).toBeChecked()
  if (readOnly) await form.getByLabel('Write statements and documents').uncheck()
  await form.getByRole('button', { name: 'Create credential' }).click()
  const shown = page.getByTestId('new-xapi-credential')
  await expect(shown).toContainText('it will not be shown again')
  const key = await shown.getByRole('textbox', { name: 'Key', exact: true }).inputValue()
  const secret = await shown.getByRole('textbox', { name: 'Secret', exact: true }).inputValue()
  expect(key).toMatch(/^[A-Za-z0-9_-]{20}$/)
  expect(secret.length).toBeGreaterThanOrEqual(40)
  return { key, secret }
}

const xapiHeaders = (key: string, secret: string) => ({
  Authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`,
  'X-Experience-API-Version': '2.0.0',
})

function statements(request: APIRequestContext, key: string, secret: string) {
  return request.get(`${server.base}/xapi/statements`, { headers: xapiHeaders(key, secret) })
}

test.describe('xAPI credentials', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test('an admin creates a credential, sees its secret once, an xAPI client uses it until it is revoked', async ({ page, request }) => {
    await signIn(page, server.base, admin, '/organisation?tab=xapi')
    await expect(page.getByRole('tab', { name: 'xAPI (LRS)' })).toHaveAttribute('aria-selected', 'true')
    await expect(page.getByRole('heading', { level: 2, name: 'Learning Record Store (xAPI)' })).toBeVisible()
    await expect(page.getByRole('textbox', { name: 'xAPI endpoint' })).toHaveValue(`${server.base}/xapi/`)

    const { key, secret } = await createCredential(page, 'Welding course player')
    const row = page.getByRole('list', { name: 'xAPI credentials' }).getByRole('listitem').filter({ hasText: 'Welding course player' })
    await expect(row).toContainText(key)
    await expect(row).toContainText('Read and write')
    expect(await seriousViolations(page), 'xAPI tab with a new secret').toEqual([])

    // Shown once: after a reload the page has the key, never the secret.
    await page.reload()
    await expect(row).toContainText(key)
    await expect(page.getByTestId('new-xapi-credential')).toHaveCount(0)
    expect(await page.content()).not.toContain(secret)

    // The About resource answers anyone; statements need the key and secret.
    const about = await request.get(`${server.base}/xapi/about`)
    expect(about.status(), await about.text()).toBe(200)
    const ok = await statements(request, key, secret)
    expect(ok.status(), await ok.text()).toBe(200)

    await row.getByRole('button', { name: /^Revoke Welding course player/ }).click()
    const dialog = page.getByRole('dialog', { name: 'Revoke Welding course player?' })
    await expect(dialog).toContainText('cannot be undone')
    await dialog.getByRole('button', { name: 'Revoke credential' }).click()
    await expect(dialog).toBeHidden()
    await expect(row).toContainText('Revoked')
    await expect(row.getByRole('button', { name: /^Revoke/ })).toHaveCount(0)

    const refused = await statements(request, key, secret)
    expect(refused.status(), await refused.text()).toBe(401)
  })

  test('a read-only credential reads statements and may not write them', async ({ page, request }) => {
    await signIn(page, server.base, admin, '/organisation?tab=xapi')
    const { key, secret } = await createCredential(page, 'Reporting dashboard', true)
    const row = page.getByRole('list', { name: 'xAPI credentials' }).getByRole('listitem').filter({ hasText: 'Reporting dashboard' })
    await expect(row).toContainText('Read only')

    const read = await statements(request, key, secret)
    expect(read.status(), await read.text()).toBe(200)
    const write = await request.post(`${server.base}/xapi/statements`, {
      headers: xapiHeaders(key, secret),
      data: { actor: { mbox: 'mailto:learner@example.com' }, verb: { id: 'http://adlnet.gov/expapi/verbs/attempted' }, object: { id: 'http://example.com/activities/welding' } },
    })
    expect(write.status(), await write.text()).toBe(403)
  })
})

test.describe('xAPI credentials at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } })

  test('the tab, a new secret and the list fit a phone', async ({ page }) => {
    await signIn(page, server.base, admin, '/organisation?tab=xapi')
    await createCredential(page, 'Phone check with a rather long name for a narrow screen')
    await expect(page.getByRole('list', { name: 'xAPI credentials' })).toContainText('Phone check')
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(scrollWidth).toBeLessThanOrEqual(375)
  })
})
