import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '../support/test'
import type { CatalogModule } from '../support/training'

test.use({ viewport: { width: 1280, height: 800 } })
test.describe.configure({ timeout: 90_000 })

test('View Demo: the trade skills demo, then the chosen trade’s first module trained hands-on and kept in the history', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('journeyman-tour-completed', 'true'))
  await page.goto('/xr-training')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'View Demo' }).click()
  await expect(page).toHaveURL(/\/demo$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Interactive Skills Training Demo' })).toBeVisible()
  await expect(page.getByTestId('demo-panel')).toBeVisible()

  // Plumbing's first module: the catalog's first plumbing module without prerequisites.
  const modules = (await (await page.request.get('/api/training-modules')).json()) as (CatalogModule & { prerequisites: string[] })[]
  const entry = modules.find((m) => m.tradeId === 'plumbing' && m.prerequisites.length === 0)!
  await page.getByTestId('trade-plumbing').click()
  await expect(page.getByTestId('demo-panel')).toHaveAttribute('aria-label', /^Plumbing/)
  const handsOn = page.getByRole('region', { name: /^Hands-on: Plumbing/ })
  await expect(handsOn.getByRole('heading', { name: entry.title })).toBeVisible()
  expect((await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])

  const started = page.waitForResponse((r) => r.url().endsWith('/api/xr-sessions') && r.request().method() === 'POST')
  await handsOn.getByRole('button', { name: 'Desktop Mode' }).click()
  const session = (await (await started).json()) as { id: string; moduleId: string }
  expect(session.moduleId).toBe(entry.id)
  // The first step, when the scene lets it be done (its minimum duration, in real time).
  await expect(handsOn.getByRole('button', { name: 'Complete step 1' })).toBeEnabled({ timeout: 15_000 })
  await handsOn.getByRole('button', { name: 'Complete step 1' }).click()
  await expect(handsOn.locator('li[data-status="done"]')).toHaveCount(1)
  const ended = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.request().postDataJSON()?.endedAt !== undefined)
  await handsOn.getByRole('button', { name: 'End Session' }).click()
  expect((await ended).status()).toBe(200)

  // In one tab, to the XR Training Center: the demo's session is in the history.
  await page.goto('/xr-training')
  await page.getByRole('tab', { name: 'Session History' }).click()
  await expect(page.getByRole('tabpanel').getByText(entry.title).first()).toBeVisible()
  const me = (await (await page.request.get('/api/me')).json()) as { id: string }
  const sessions = (await (await page.request.get(`/api/users/${me.id}/xr-sessions`)).json()) as { id: string; completionStatus: string }[]
  expect(sessions.find((s) => s.id === session.id)?.completionStatus).toBe('completed')
})
