import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '../support/test'

// Seed 001 §2: /advanced shows the analytics, digital twin, personalization,
// voice and welding features as tabs, each the feature's own component,
// loaded only when its tab opens.

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).include('#main-content').analyze()
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)
}

/**
 * The page's outline: one h1, the open tab's one h2, and the feature's own
 * headings below it without skipping a level.
 */
async function expectOutline(page: Page, tab: string) {
  const levels = await page.evaluate(() =>
    [...document.querySelectorAll('main h1, main h2, main h3, main h4, main h5, main h6')].map((h) => Number(h.tagName[1])),
  )
  expect(levels.filter((l) => l === 1)).toHaveLength(1)
  const panel = await page.getByRole('tabpanel', { name: tab, exact: true }).evaluate((p) => [...p.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1])))
  expect(panel[0]).toBe(2)
  expect(panel.filter((l) => l <= 2)).toHaveLength(1)
  panel.slice(1).forEach((l, i) => expect(l, `heading ${i + 2} of the open tab`).toBeLessThanOrEqual(panel[i] + 1))
  expect(panel.length).toBeGreaterThan(1)
}

test('each tab shows its feature, loaded only once the tab opens', async ({ page }) => {
  // Several pages, a 3D scene or charts, and axe scans: slow on a shared machine.
  test.setTimeout(90_000)
  const paths: string[] = []
  page.on('request', (r) => paths.push(new URL(r.url()).pathname))
  await page.goto('/advanced')
  await expect(page.getByRole('heading', { level: 1, name: 'Advanced Features' })).toBeVisible()
  const tabs = page.getByRole('tablist', { name: 'Advanced features' }).getByRole('tab')
  await expect(tabs).toHaveText(['Analytics', 'Digital Twin', 'Personalization', 'Voice Training', 'AR Welding'])

  // Analytics is open first: the dashboard's own level badge and period selector.
  await expect(page.getByRole('heading', { level: 2, name: 'Performance analytics' })).toBeVisible()
  await expect(page.getByRole('tab', { name: 'Overview' })).toBeVisible({ timeout: 15_000 })
  await expect(page.getByLabel('Period')).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  await expectOutline(page, 'Analytics')
  // The twin monitor has not loaded, so it has not polled either.
  expect(paths).not.toContain('/api/digital-twin/equipment')

  await page.getByRole('tab', { name: 'Digital Twin' }).click()
  await expect(page.getByRole('heading', { level: 2, name: 'Digital twin equipment monitor' })).toBeVisible()
  await expect(page.getByRole('heading', { level: 3, name: /^Equipment \(\d+\)$/ })).toBeVisible({ timeout: 15_000 })
  expect(paths).toContain('/api/digital-twin/equipment')
  expect(await seriousViolations(page)).toEqual([])
  await expectOutline(page, 'Digital Twin')

  await page.getByRole('tab', { name: 'Personalization' }).click()
  await expect(page.getByText('Step 1 of 7')).toBeVisible({ timeout: 15_000 })
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(page.getByText('Step 2 of 7')).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  await expectOutline(page, 'Personalization')

  // Voice and welding are the features' own components, not links to their pages.
  await page.getByRole('tab', { name: 'Voice Training' }).click()
  await expect(page.getByRole('button', { name: /^Activate / }).first()).toBeVisible({ timeout: 15_000 })
  expect(paths).toContain('/api/voice-modules')
  expect(await seriousViolations(page)).toEqual([])
  await expectOutline(page, 'Voice Training')
  await page.getByRole('tab', { name: 'AR Welding' }).click()
  await expect(page.getByRole('button', { name: 'Start Welding' })).toBeVisible({ timeout: 15_000 })
  expect(await seriousViolations(page)).toEqual([])
  await expectOutline(page, 'AR Welding')
})

test('the tabs work from the keyboard', async ({ page }) => {
  await page.goto('/advanced')
  await page.getByRole('tab', { name: 'Analytics' }).focus()
  await page.keyboard.press('ArrowRight')
  await expect(page.getByRole('tab', { name: 'Digital Twin' })).toBeFocused()
  await expect(page.getByRole('tab', { name: 'Digital Twin' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('heading', { level: 2, name: 'Digital twin equipment monitor' })).toBeVisible()
})
