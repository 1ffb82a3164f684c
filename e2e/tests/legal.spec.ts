import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '../support/test'
import { skipTour } from '../support/accounts'

// The footer's policy pages (web/src/features/legal) against the built binary.

test.describe.configure({ timeout: 60_000 })

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

const policies = [
  { link: 'Privacy Policy', path: '/privacy', says: 'journeyman_guest' },
  { link: 'Terms of Service', path: '/terms', says: 'It is not a licence to do the work.' },
  { link: 'Security', path: '/security', says: 'Argon2id' },
]

test('the footer opens each policy in the same tab, and each links to the other two', async ({ page }) => {
  await skipTour(page)
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 15_000 })
  for (const { link, path, says } of policies) {
    await page.getByRole('contentinfo').getByRole('link', { name: link, exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`${path}$`))
    await expect(page.getByRole('heading', { level: 1, name: link })).toBeVisible()
    await expect(page).toHaveTitle(new RegExp(link))
    await expect(page.getByRole('main')).toContainText(says)
    const others = page.getByRole('navigation', { name: 'Policies' }).getByRole('link')
    await expect(others).toHaveText(policies.filter((p) => p.link !== link).map((p) => p.link))
    expect(await seriousViolations(page)).toEqual([])
  }
  // From one policy to another through its own links, as a reader goes.
  await page.getByRole('navigation', { name: 'Policies' }).getByRole('link', { name: 'Privacy Policy' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible()
  await page.getByRole('link', { name: 'verify page' }).click()
  await expect(page).toHaveURL(/\/verify$/)
})
