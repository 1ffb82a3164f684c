import { readFileSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '../support/test'
import { signIn, skipTour } from '../support/accounts'
import { startFreshServer, type FreshServer } from '../support/fresh-server'
import { MODULE_ID, PHONE_USER_AGENT, parseCsv, seedPortal, type PortalWorld } from '../support/portal'

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

// Sign-ups, a 3-second session and several pages on a 2-core machine. In
// order in one worker, so the world is set up once; a failed test does not
// skip the others.
test.describe.configure({ mode: 'default', timeout: 150_000 })

let server: FreshServer
let world: PortalWorld

// A server of the spec's own (sign-ups are limited per address), set up through the API.
test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000)
  server = await startFreshServer()
  world = await seedPortal(playwright, server, 'Riverside Electrical College')
})
test.afterAll(async () => {
  await world?.dispose()
  await server?.stop()
})
test.beforeEach(({ page }) => skipTour(page))

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' })
const learnersTable = (page: Page) => page.getByRole('table', { name: /^Learners of / })
const learnerNames = (page: Page) => learnersTable(page).locator('tbody th[scope="row"] a')

test.describe('portal', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test("an instructor's day, part 1: cohort, learner, session replay and the cohort's CSV", async ({ page }) => {
    await signIn(page, server.base, world.instructor, '/')
    await nav(page).getByTestId('account-menu-trigger').click()
    await page.getByRole('menuitem', { name: 'Portal' }).click()
    await expect(page).toHaveURL(/\/portal$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Portal' })).toBeVisible()
    const cohorts = page.getByRole('list', { name: 'Cohorts' })
    await expect(cohorts.getByRole('listitem')).toHaveCount(1)
    await expect(cohorts).toContainText('2 learners')
    await expect(cohorts).toContainText('Instructor: Ivan Instructor')
    expect(await seriousViolations(page), '/portal').toEqual([])

    await cohorts.getByRole('link', { name: world.cohort.name }).click()
    await expect(page.getByRole('heading', { level: 1, name: world.cohort.name })).toBeVisible()
    await expect(learnerNames(page)).toHaveText(['Abe Archer', 'Zoe Zimmer'])
    const zoeRow = learnersTable(page).locator(`tr[data-learner="${world.zoe.email}"]`)
    // Sessions, modules completed (none passed), alerts, refreshers due, unverified: the server's figures.
    const zoeCells = zoeRow.getByRole('cell')
    await expect(zoeCells.nth(0)).toHaveText('2')
    await expect(zoeCells.nth(3)).toHaveText('0')
    await expect(zoeCells.nth(7)).toHaveText('1')
    expect(await seriousViolations(page), 'cohort page').toEqual([])

    // Sort by sessions: the busiest learner first; the address keeps it.
    await page.getByRole('button', { name: 'Sessions' }).click()
    await expect(page.getByRole('columnheader', { name: 'Sessions' })).toHaveAttribute('aria-sort', 'descending')
    await expect(learnerNames(page)).toHaveText(['Zoe Zimmer', 'Abe Archer'])
    await expect(page).toHaveURL(/\?sort=sessions&dir=desc$/)
    await page.reload()
    await expect(learnerNames(page)).toHaveText(['Zoe Zimmer', 'Abe Archer'])

    // Filter by name.
    await page.getByLabel('Search learners').fill('zoe')
    await expect(learnerNames(page)).toHaveText(['Zoe Zimmer'])
    await expect(page.getByText('Showing 1–1 of 1')).toBeVisible()
    await expect(page).toHaveURL(/q=zoe/)

    await learnerNames(page).first().click()
    await expect(page.getByRole('heading', { level: 1, name: 'Zoe Zimmer' })).toBeVisible()
    const figure = (label: string) => page.getByLabel('Figures').locator(`dt:text-is("${label}") + dd`)
    await expect(figure('Sessions')).toHaveText('2')
    await expect(figure('Unverified sessions')).toHaveText('1')
    await expect(figure('Modules completed')).toHaveText('0')
    const sessions = page.getByRole('table', { name: /^Sessions, newest first/ })
    await expect(sessions.locator('tbody tr')).toHaveCount(2)
    await expect(sessions.locator(`tr[data-session="${world.unverifiedSessionId}"]`)).toContainText('Unverified')
    const verifiedRow = sessions.locator(`tr[data-session="${world.verifiedSession.id}"]`)
    await expect(verifiedRow).toContainText('Verified')
    await expect(verifiedRow).toContainText('1 passed, 6 skipped')
    await expect(page.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', `/api/portal/learners/${world.zoe.id}/export.csv`)
    expect(await seriousViolations(page), 'learner page').toEqual([])

    await verifiedRow.getByRole('link').click()
    await expect(page).toHaveURL(new RegExp(`/portal/learners/${world.zoe.id}/sessions/${world.verifiedSession.id}$`))
    await expect(page.getByRole('heading', { level: 1, name: /Lockout\/Tagout/ })).toBeVisible()
    const steps = page.getByRole('table', { name: /^Steps/ }).locator('tbody tr')
    await expect(steps).toHaveCount(8)
    await expect(steps.nth(0)).toContainText('Completed')
    await expect(steps.nth(0)).toContainText('Safety check')
    await expect(steps.nth(1)).toContainText('Missed')
    await expect(steps.nth(2)).toContainText('Completed')
    await expect(steps.nth(3)).toContainText('Missed')

    // The replay, by keyboard: the slider moves a second per arrow key.
    const slider = page.getByRole('slider', { name: 'Replay position' })
    const said = page.getByTestId('replay-announcement')
    await expect(said).toHaveAttribute('aria-live', 'polite')
    await slider.focus()
    await page.keyboard.press('End')
    await expect(slider).toHaveAttribute('aria-valuetext', '0:05 of 0:05')
    await expect(said).toHaveText(/^Step 3 of 8: Switch the fused disconnect to OFF, and check through its window that the blades are open\. — completed at 0:04$/)
    await expect(steps.nth(2)).toHaveAttribute('aria-current', 'step')
    await page.keyboard.press('Home')
    await expect(said).toHaveText(/^Step 1 of 8: Put on the arc-rated face shield .* — completed at 0:03$/)
    await expect(steps.nth(0)).toHaveAttribute('aria-current', 'step')
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight')
    await expect(slider).toHaveAttribute('aria-valuetext', '0:03 of 0:05')
    await expect(said).toHaveText(/^Step 3 of 8/)
    await page.keyboard.press('ArrowLeft')
    await expect(said).toHaveText(/^Step 1 of 8/)

    // Played from the keyboard at 4×, it runs to the end and stops.
    await page.getByRole('button', { name: '4×' }).press('Enter')
    await expect(page.getByRole('button', { name: '4×' })).toHaveAttribute('aria-pressed', 'true')
    await page.getByRole('button', { name: 'Play' }).press('Enter')
    await expect(page.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 10_000 })
    await expect(slider).toHaveAttribute('aria-valuetext', '0:05 of 0:05')
    await expect(said).toHaveText(/^Step 3 of 8/)
    expect(await seriousViolations(page), 'session review').toEqual([])

    // Back to the learner, then the cohort, whose CSV downloads.
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Zoe Zimmer' }).click()
    await page.getByRole('link', { name: world.cohort.name }).click()
    await expect(page.getByRole('heading', { level: 1, name: world.cohort.name })).toBeVisible()
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()])
    expect(download.suggestedFilename()).toMatch(/^cohort-spring-intake-[a-z0-9-]+\.csv$/)
    const rows = parseCsv(readFileSync(await download.path(), 'utf8'))
    const header = rows[0]
    expect(header).toEqual(['Learner', 'Email', 'Module ID', 'Module', 'Status', 'Best verified score', 'Attempts', 'Time (minutes)', 'Last active (UTC)'])
    const cell = (row: string[], name: string) => row[header.indexOf(name)]
    const lockout = (email: string) => rows.find((r) => cell(r, 'Email') === email && cell(r, 'Module ID') === MODULE_ID)
    const zoe = lockout(world.zoe.email)
    const abe = lockout(world.abe.email)
    expect(zoe && cell(zoe, 'Learner')).toBe('Zoe Zimmer')
    expect(zoe && cell(zoe, 'Attempts')).toBe('2')
    expect(zoe && cell(zoe, 'Status')).toBe('not passed')
    expect(zoe && cell(zoe, 'Best verified score')).toBe(String(world.verifiedSession.safetyScore))
    expect(abe && cell(abe, 'Attempts')).toBe('1')
    expect(abe && cell(abe, 'Best verified score')).toBe('')
    // Learners by name: Abe's rows come first.
    expect(cell(rows[1], 'Learner')).toBe('Abe Archer')
  })

  test('a learner who opens the portal is told it is for instructors and admins', async ({ page }) => {
    await signIn(page, server.base, world.abe, '/portal')
    await expect(page.getByRole('heading', { level: 1, name: 'Portal' })).toBeVisible()
    await expect(page.getByText(/Only instructors and admins use the portal; you are a learner at Riverside Electrical College\./)).toBeVisible()
    await expect(page.getByRole('link', { name: 'Go to your account' })).toHaveAttribute('href', '/account')
    await nav(page).getByTestId('account-menu-trigger').click()
    await expect(page.getByRole('menuitem', { name: 'Account' })).toBeVisible()
    await expect(page.getByRole('menuitem', { name: 'Portal' })).toHaveCount(0)
  })
})

test.describe('portal at 375 px', () => {
  test.use({ viewport: { width: 375, height: 800 } })

  test('the learners table scrolls sideways inside its frame; the page does not', async ({ page }) => {
    await signIn(page, server.base, world.instructor, `/portal/cohorts/${world.cohort.id}`)
    await expect(learnerNames(page)).toHaveCount(2)
    const frame = page.getByRole('region', { name: /^Learners of / })
    const sizes = await frame.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }))
    expect(sizes.scroll).toBeGreaterThan(sizes.client)
    expect(await frame.evaluate((el) => ((el.scrollLeft = 200), el.scrollLeft))).toBeGreaterThan(0)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    // The mobile menu offers the portal too.
    await page.getByRole('button', { name: 'Menu', exact: true }).click()
    await expect(page.getByTestId('mobile-menu').getByRole('link', { name: 'Portal' })).toHaveAttribute('href', '/portal')
  })

  test("a session's review names the device, with its user-agent string in small print inside its card", async ({ page }) => {
    await signIn(page, server.base, world.instructor, `/portal/learners/${world.zoe.id}/sessions/${world.unverifiedSessionId}`)
    const device = page.getByLabel('Summary figures').locator('dt:text-is("Device") + dd')
    await expect(device).toHaveText(`Chrome 131 on Android${PHONE_USER_AGENT}`)
    const card = device.locator('..')
    const [cardBox, deviceBox] = [(await card.boundingBox())!, (await device.boundingBox())!]
    expect(deviceBox.x + deviceBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width)
    expect(await device.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), 'nothing of it is cut off').toBe(true)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  })
})

test.describe('portal, an AR weld', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test("a learner's AR weld shows in its review with the quality the server works out, not the page's claim", async ({ page }) => {
    const api = world.abe.api
    const start = await api.post('/api/xr-sessions', {
      data: { moduleId: 'welding-smaw-fillet', sessionType: 'ar', deviceType: 'e2e', startedAt: new Date().toISOString() },
    })
    expect(start.status(), await start.text()).toBe(201)
    const { id } = (await start.json()) as { id: string }
    const metrics = { temperature: 175, travelSpeed: 9, penetration: 3, beadWidth: 7, voltage: 22, amperage: 150, gasPressure: 22, accuracy: 92 }
    const weld = { action: 'weld', input: 'other', seq: 0, sessionTime: 500, timestamp: new Date().toISOString(), technique: 'SMAW', material: 'stainless steel', position: '3G', metrics, qualityScore: 99, qualityLabel: 'Excellent' }
    const end = await api.patch(`/api/xr-sessions/${id}`, {
      data: { endedAt: new Date().toISOString(), completionStatus: 'completed', duration: 1, interactionData: { interactions: [weld], safetyChecks: [] } },
    })
    expect(end.status(), await end.text()).toBe(200)

    await signIn(page, server.base, world.instructor, `/portal/learners/${world.abe.id}/sessions/${id}`)
    await expect(page.getByRole('heading', { level: 2, name: 'Welds' })).toBeVisible()
    const figures = page.getByLabel('Weld at 0:00: SMAW (Stick), stainless steel, 3G (vertical)')
    // (92 + 3 × 10 + (100 − 10 × |9 − 8|)) / 3 = 70.7: Fair, whatever the page said.
    await expect(figures.locator('dt:text-is("Quality") + dd')).toHaveText('70.7 Fair')
    await expect(figures.locator('dt:text-is("Accuracy") + dd')).toHaveText('92 %')
    await expect(figures.locator('dt:text-is("Travel Speed") + dd')).toHaveText('9.0 in/min')
    expect(await seriousViolations(page)).toEqual([])
  })
})
