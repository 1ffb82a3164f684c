import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '../support/test'
import { startFreshServer, type FreshServer } from '../support/fresh-server'

// The original landing page, /original (spec 000 §2–§5, §8, §9).

async function gotoLanding(page: Page) {
  await page.goto('/original')
  // The page is a lazy chunk; on a busy machine its first load can take a while.
  await expect(page.getByRole('heading', { level: 1, name: 'Unlock Your Potential with Immersive XR Training' })).toBeVisible({
    timeout: 15_000,
  })
}

const section = (page: Page, id: string) => page.locator(`section#${id}`)

test.describe('hero', () => {
  test('shows the badges, headline and chips', async ({ page }) => {
    await gotoLanding(page)
    await expect(page.getByText('4K VR Experience', { exact: true })).toBeVisible()
    await expect(page.getByText('LIVE', { exact: true })).toBeVisible()
    const chips = page.getByRole('list', { name: 'Platform features' }).getByRole('listitem')
    await expect(chips).toHaveText(['4K Ultra HD Visuals', 'Haptic Feedback', 'Spatial Audio', 'Industry Certified'])
  })

  test("'Launch VR Training' opens the XR Training Center", async ({ page }) => {
    await gotoLanding(page)
    await page.getByRole('link', { name: 'Launch VR Training' }).click()
    await expect(page).toHaveURL(/\/xr-training$/)
  })

  test("'Watch Live Demo' goes to #video-showcase, the experiences", async ({ page }) => {
    await gotoLanding(page)
    await page.getByRole('link', { name: 'Watch Live Demo' }).click()
    await expect(page).toHaveURL(/\/original#video-showcase$/)
    await expect(page.getByRole('heading', { name: 'Immersive VR Experiences' })).toBeInViewport()
  })

  test('a hero video whose sources both fail is hidden and logged', async ({ page }) => {
    const errors: string[] = []
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    await page.route('**/media/hero.*', (route) => route.fulfill({ status: 404, body: '' }))
    await gotoLanding(page)
    // Both refusals pass through the test runner's route handler, which
    // answers slowly while the run starts its first pages.
    await expect(page.getByTestId('landing-hero-video')).toHaveCount(0, { timeout: 15_000 })
    expect(errors.some((e) => e.includes('Landing hero video failed to load'))).toBe(true)
    await expect(page.getByRole('link', { name: 'Launch VR Training' })).toBeVisible()
  })
})

test('the sections follow the hero in order and fade in as they come into view', async ({ page }) => {
  await gotoLanding(page)
  const ids = await page.locator('main section[data-reveal]').evaluateAll((els) => els.map((e) => e.id))
  expect(ids).toEqual(['video-showcase', 'dashboard', 'authoring', 'training', 'analytics', 'digital-twin'])
  const twin = section(page, 'digital-twin')
  await expect(twin).toHaveAttribute('data-visible', 'false')
  await twin.scrollIntoViewIfNeeded()
  await expect(twin).toHaveAttribute('data-visible', 'true')
})

test.describe('Immersive VR Experiences', () => {
  const experiences = [
    ['Advanced Welding Simulation', '15-20 min', 'Intermediate', 'welding-smaw-fillet'],
    ['Electrical Panel Training', '12-15 min', 'Beginner', 'electrical-lockout-tagout'],
    ['Solar Panel Installation', '18-25 min', 'Advanced', 'solar-wind-pv-string-sizing'],
  ] as const

  test('welding is chosen first; each experience shows its details, skills and launch links', async ({ page }) => {
    await gotoLanding(page)
    const showcase = section(page, 'video-showcase')
    await expect(showcase.getByRole('tab')).toHaveText(experiences.map((e) => e[0]))
    await expect(showcase.getByRole('tab', { name: 'Advanced Welding Simulation' })).toHaveAttribute('aria-selected', 'true')
    for (const [title, duration, difficulty, moduleId] of experiences) {
      await showcase.getByRole('tab', { name: title }).click()
      const panel = showcase.getByRole('tabpanel')
      await expect(panel.getByRole('heading', { name: title })).toBeVisible()
      await expect(panel.getByText(duration, { exact: true })).toBeVisible()
      await expect(panel.getByText(difficulty, { exact: true })).toBeVisible()
      await expect(panel.getByRole('listitem')).toHaveCount(4)
      for (const name of ['Start VR Experience', 'Launch in VR']) {
        await expect(panel.getByRole('link', { name })).toHaveAttribute('href', `/xr-training?module=${moduleId}`)
      }
    }
  })

  test('the experience tabs work from the keyboard', async ({ page }) => {
    await gotoLanding(page)
    const showcase = section(page, 'video-showcase')
    await showcase.getByRole('tab', { name: 'Advanced Welding Simulation' }).focus()
    await page.keyboard.press('ArrowRight')
    await expect(showcase.getByRole('tab', { name: 'Electrical Panel Training' })).toHaveAttribute('aria-selected', 'true')
    await expect(showcase.getByRole('tabpanel').getByRole('heading', { name: 'Electrical Panel Training' })).toBeVisible()
  })

  test('Start VR Experience and Launch in VR open the XR Training Center with the module chosen', async ({ page }) => {
    await gotoLanding(page)
    await section(page, 'video-showcase').getByRole('link', { name: 'Start VR Experience' }).click()
    await expect(page).toHaveURL(/\/xr-training\?module=welding-smaw-fillet$/)
    await gotoLanding(page)
    const showcase = section(page, 'video-showcase')
    await showcase.getByRole('tab', { name: 'Solar Panel Installation' }).click()
    await showcase.getByRole('link', { name: 'Launch in VR' }).click()
    await expect(page).toHaveURL(/\/xr-training\?module=solar-wind-pv-string-sizing$/)
  })

  test('Preview Mode plays the preview and pauses it again', async ({ page }) => {
    await gotoLanding(page)
    const showcase = section(page, 'video-showcase')
    const preview = showcase.getByRole('button', { name: 'Preview Mode' })
    const video = showcase.getByTestId('experience-video')
    await expect(preview).toHaveAttribute('aria-pressed', 'false')
    await preview.click()
    await expect(preview).toHaveAttribute('aria-pressed', 'true')
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0)).toBe(true)
    await preview.click()
    await expect(preview).toHaveAttribute('aria-pressed', 'false')
    expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true)
  })

  test('360° View pans the panorama by keyboard and by drag', async ({ page }) => {
    await gotoLanding(page)
    const showcase = section(page, 'video-showcase')
    await showcase.getByRole('button', { name: '360° View' }).click()
    const view = showcase.getByRole('slider', { name: '360° view of Advanced Welding Simulation' })
    await expect(view).toHaveAttribute('aria-valuenow', '0')
    await view.focus()
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowRight')
    await expect(view).toHaveAttribute('aria-valuenow', '30')
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowLeft')
    await expect(view).toHaveAttribute('aria-valuenow', '345')
    await page.keyboard.press('Home')
    await expect(view).toHaveAttribute('aria-valuenow', '0')

    const box = (await view.boundingBox())!
    await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2, { steps: 5 })
    await page.mouse.up()
    await expect(view).toHaveAttribute('aria-valuenow', '60') // half the width is 60°
    await showcase.getByRole('button', { name: '360° View' }).click()
    await expect(view).toHaveCount(0)
  })

  test('Fullscreen shows the experience full screen and exits again', async ({ page }) => {
    await gotoLanding(page)
    const showcase = section(page, 'video-showcase')
    await showcase.getByRole('button', { name: 'Fullscreen' }).click()
    await expect.poll(() => page.evaluate(() => document.fullscreenElement?.getAttribute('data-testid') ?? null)).toBe('experience-stage')
    await showcase.getByRole('button', { name: 'Exit fullscreen' }).click()
    await expect.poll(() => page.evaluate(() => document.fullscreenElement)).toBeNull()
    await expect(showcase.getByRole('button', { name: 'Fullscreen' })).toBeVisible()
  })

  test('a video that cannot play says so and links to the file', async ({ page }) => {
    await page.route('**/landing/welding-simulation.{webm,mp4}', (route) => route.fulfill({ status: 404, body: '' }))
    await gotoLanding(page)
    const showcase = section(page, 'video-showcase')
    const notice = showcase.getByTestId('video-unsupported')
    await expect(notice.getByText('Your browser does not support video playback.')).toBeVisible()
    const link = notice.getByRole('link', { name: 'Watch video in new tab' })
    await expect(link).toHaveAttribute('href', '/landing/welding-simulation.mp4')
    await expect(link).toHaveAttribute('target', '_blank')
    await expect(showcase.getByRole('button', { name: 'Preview Mode' })).toBeDisabled()
  })
})

test.describe('Learning Management Dashboard', () => {
  test.describe('on a fresh database', () => {
    // A server of our own on a new database, so that no other test's sessions change the figures.
    let server: FreshServer
    let base: string
    test.beforeAll(async () => {
      server = await startFreshServer()
      base = server.base
    })
    test.afterAll(() => server?.stop())

    test('the four tiles read the server and show zeros, the score with one decimal', async ({ page }) => {
      const stats = page.waitForResponse((r) => r.url().endsWith('/api/analytics/dashboard-stats'))
      await page.goto(`${base}/original`)
      expect(await (await stats).json()).toEqual({ activeLearners: 0, totalCertifications: 0, totalXrSessions: 0, averageSafetyScore: 0, scope: 'platform' })
      await expect(page.getByTestId('stat-activeLearners')).toHaveText('0')
      await expect(page.getByTestId('stat-totalCertifications')).toHaveText('0')
      await expect(page.getByTestId('stat-totalXrSessions')).toHaveText('0')
      await expect(page.getByTestId('stat-averageSafetyScore')).toHaveText('0.0%')
    })
  })

  test('missing values count as 0 and the score keeps one decimal', async ({ page }) => {
    await page.route('**/api/analytics/dashboard-stats', (route) =>
      route.fulfill({ json: { activeLearners: 1234, averageSafetyScore: 87 } }),
    )
    await gotoLanding(page)
    await expect(page.getByTestId('stat-activeLearners')).toHaveText('1,234')
    await expect(page.getByTestId('stat-totalCertifications')).toHaveText('0')
    await expect(page.getByTestId('stat-totalXrSessions')).toHaveText('0')
    await expect(page.getByTestId('stat-averageSafetyScore')).toHaveText('87.0%')
  })

  test('a failed read says so and can be retried', async ({ page }) => {
    let fail = true
    await page.route('**/api/analytics/dashboard-stats', (route) =>
      fail ? route.fulfill({ status: 503, body: 'down' }) : route.fulfill({ json: { totalXrSessions: 5, averageSafetyScore: 91.25 } }),
    )
    await gotoLanding(page)
    const dashboard = section(page, 'dashboard')
    await expect(dashboard.getByRole('alert')).toHaveText(/The live figures could not be loaded/)
    fail = false
    await dashboard.getByRole('button', { name: 'Try again' }).click()
    await expect(page.getByTestId('stat-totalXrSessions')).toHaveText('5')
    await expect(page.getByTestId('stat-averageSafetyScore')).toHaveText('91.3%')
  })

  test('recent activity shows its points', async ({ page }) => {
    await gotoLanding(page)
    const dashboard = section(page, 'dashboard')
    for (const points of ['+95', '+87', '+120']) await expect(dashboard.getByText(points, { exact: false }).first()).toBeVisible()
  })

  test('Create XR Content scrolls to the authoring studio', async ({ page }) => {
    await gotoLanding(page)
    await section(page, 'dashboard').getByRole('link', { name: /Create XR Content/ }).click()
    await expect(page).toHaveURL(/\/original#authoring$/)
    await expect(page.getByRole('heading', { name: 'XR Content Authoring Studio' })).toBeInViewport()
  })

  for (const [name, path] of [
    ['View Analytics', '/analytics'],
    ['Manage Courses', '/learning-hub'],
    ['System Settings', '/personalization'],
  ] as const) {
    test(`${name} goes to ${path}`, async ({ page }) => {
      await gotoLanding(page)
      await section(page, 'dashboard').getByRole('link', { name: new RegExp(name) }).click()
      await expect(page).toHaveURL(new RegExp(`${path}$`))
    })
  }
})

test.describe('XR Content Authoring Studio', () => {
  test('shows the editor and its static line', async ({ page }) => {
    await gotoLanding(page)
    const studio = section(page, 'authoring')
    for (const name of ['Save', 'Preview', 'Deploy']) await expect(studio.getByRole('button', { name, exact: true })).toBeVisible()
    await expect(studio.getByText('Auto-save enabled')).toBeVisible()
    await expect(studio.getByText('Objects: 12 | Interactions: 8 | Safety Triggers: 4')).toBeVisible()
    await expect(studio.getByRole('group', { name: /3D Workspace/ })).toBeVisible()
    await expect(studio.getByLabel('Object name')).toHaveValue('Electrical Panel')
    await expect(studio.getByRole('checkbox', { name: 'Haptic feedback' })).toBeChecked()
  })

  test('builds a scene from the keyboard: add, rename, set properties, move, remove', async ({ page }) => {
    await gotoLanding(page)
    const studio = section(page, 'authoring')
    await studio.getByRole('button', { name: 'Add Hazard Zone' }).focus()
    await page.keyboard.press('Enter')
    const name = studio.getByLabel('Object name')
    await expect(name).toHaveValue('Hazard Zone 2')
    await name.fill('Confined Space Entry')
    const added = studio.getByRole('button', { name: /^Confined Space Entry, proximity, high safety/ })
    await expect(added).toHaveAttribute('aria-pressed', 'true')

    // Interaction type and safety level: Radix selects, driven by keys.
    await studio.getByRole('combobox', { name: 'Interaction type' }).focus()
    await page.keyboard.press('Enter')
    await page.getByRole('option', { name: 'Grab' }).focus()
    await page.keyboard.press('Enter')
    await expect(studio.getByRole('combobox', { name: 'Interaction type' })).toHaveText(/Grab/)
    await studio.getByRole('combobox', { name: 'Safety level' }).click()
    await page.getByRole('option', { name: 'Low' }).click()
    const flow = studio.getByTestId('script-flow')
    await expect(flow.getByRole('listitem')).toHaveText(['On Grab', 'Safety Check (low)', 'Haptic Pulse', 'Show Instruction', 'Score Step'])

    await studio.getByRole('checkbox', { name: 'Haptic feedback' }).focus()
    await page.keyboard.press('Space')
    await expect(studio.getByRole('checkbox', { name: 'Haptic feedback' })).not.toBeChecked()
    await expect(flow.getByRole('listitem')).toHaveText(['On Grab', 'Safety Check (low)', 'Show Instruction', 'Score Step'])

    const object = studio.getByRole('button', { name: /^Confined Space Entry, grab, low safety, column 1 row 1$/ })
    await object.focus()
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowDown') // (2, 2) holds the Electrical Panel: blocked
    await expect(studio.getByRole('button', { name: /^Confined Space Entry, grab, low safety, column 2 row 1$/ })).toBeFocused()
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowDown')
    await expect(studio.getByRole('button', { name: /^Confined Space Entry, grab, low safety, column 3 row 2$/ })).toBeFocused()
    await page.keyboard.press('Delete')
    await expect(studio.getByRole('button', { name: /^Confined Space Entry/ })).toHaveCount(0)
  })

  test('Save keeps the scene in this browser across a reload', async ({ page }) => {
    await gotoLanding(page)
    const studio = section(page, 'authoring')
    await studio.getByLabel('Object name').fill('Main Breaker Panel')
    await studio.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Scene saved' })).toBeVisible()
    await expect(studio.getByText('All changes saved')).toBeVisible()
    await page.reload()
    await expect(section(page, 'authoring').getByLabel('Object name')).toHaveValue('Main Breaker Panel')
  })

  test('auto-save stores edits without pressing Save', async ({ page }) => {
    await gotoLanding(page)
    const studio = section(page, 'authoring')
    await studio.getByRole('button', { name: 'Add Spatial Audio Cue' }).click()
    await expect(studio.getByText('Unsaved changes')).toBeVisible()
    await expect(studio.getByText('All changes saved')).toBeVisible({ timeout: 5000 })
    await page.reload()
    await expect(section(page, 'authoring').getByRole('button', { name: /^Spatial Audio Cue 1,/ })).toBeVisible()
  })

  test('Preview freezes editing; Deploy stamps a version', async ({ page }) => {
    await gotoLanding(page)
    const studio = section(page, 'authoring')
    const preview = studio.getByRole('button', { name: 'Preview', exact: true })
    await preview.click()
    await expect(preview).toHaveAttribute('aria-pressed', 'true')
    await expect(studio.getByText('Preview running')).toBeVisible()
    await expect(studio.getByRole('button', { name: 'Add 3D Model' })).toBeDisabled()
    await expect(studio.getByLabel('Object name')).toBeDisabled()
    await preview.click()
    await expect(studio.getByRole('button', { name: 'Add 3D Model' })).toBeEnabled()

    await studio.getByRole('button', { name: 'Deploy' }).click()
    await expect(studio.getByTestId('deployed-version')).toHaveText('Deployed v1')
    await expect(page.getByRole('status').filter({ hasText: 'Version 1 deployed' })).toBeVisible()
  })
})

test.describe('Trade Training Modules', () => {
  test("shows the server's modules by id, title and description", async ({ page }) => {
    const modulesAnswer = page.waitForResponse((r) => r.url().endsWith('/api/training-modules'))
    await gotoLanding(page)
    const serverModules = (await (await modulesAnswer).json()) as { id: string; title: string; description: string }[]
    expect(serverModules.length).toBeGreaterThan(9)
    const training = section(page, 'training')
    const cards = training.getByTestId('server-module')
    await expect(cards).toHaveCount(9)
    await expect(training.getByTestId('fallback-trade')).toHaveCount(0)
    const first = cards.first()
    await expect(first).toContainText(serverModules[0].id)
    await expect(first.getByRole('heading')).toHaveText(serverModules[0].title)
    await expect(first).toContainText(serverModules[0].description)
    // Only id, title and description: no difficulty or duration on these cards.
    await expect(first).not.toContainText(/minutes|beginner|intermediate|advanced/i)

    await training.getByRole('button', { name: `Show all ${serverModules.length} modules` }).click()
    await expect(cards).toHaveCount(serverModules.length)
    await cards.nth(serverModules.length - 1).getByRole('link', { name: /Start Training/ }).click()
    await expect(page).toHaveURL(new RegExp(`/xr-training\\?module=${serverModules.at(-1)!.id}$`))
  })

  test('falls back to the nine trades when the server lists none', async ({ page }) => {
    await page.route('**/api/training-modules', (route) => route.fulfill({ json: [] }))
    await gotoLanding(page)
    const training = section(page, 'training')
    const cards = training.getByTestId('fallback-trade')
    await expect(cards).toHaveCount(9)
    const table = [
      ['Electricians', 15, 45, 'Low', 'Very Strong Growth'],
      ['Plumbers/Pipefitters/Steamfitters', 12, 38, 'Very Low', 'High Demand'],
      ['HVAC Technicians', 14, 42, 'Low', 'Climate Critical'],
      ['Welders & Fabricators', 16, 48, 'Medium', 'High Skills Required'],
      ['Solar Panel & Wind Turbine Technicians', 18, 50, 'Very Low', 'Future Energy Leaders'],
      ['Automotive Technicians EV', 14, 40, 'Low', 'EV Transition Critical'],
      ['Elevator Installers', 10, 35, 'Very Low', 'Urban Growth Essential'],
      ['Lineworkers', 13, 44, 'Low', 'Grid Modernization'],
      ['Heavy Equipment & Diesel Mechanics', 12, 40, 'Low', 'Infrastructure Essential'],
    ] as const
    for (const [i, [title, modules, hours, risk, demand]] of table.entries()) {
      const card = cards.nth(i)
      await expect(card.getByRole('heading')).toHaveText(title)
      await expect(card.locator('dt:text-is("Modules") + dd')).toHaveText(String(modules))
      await expect(card.locator('dt:text-is("Hours") + dd')).toHaveText(String(hours))
      await expect(card.locator('dt:text-is("AI Risk") + dd')).toHaveText(risk)
      await expect(card.getByText(demand, { exact: true })).toBeVisible()
    }
    await cards.first().getByRole('link', { name: /Start Training/ }).click()
    await expect(page).toHaveURL(/\/xr-training\?module=electrical-lockout-tagout$/)
  })

  test('falls back as well when the module list cannot be read', async ({ page }) => {
    await page.route('**/api/training-modules', (route) => route.fulfill({ status: 500, body: 'boom' }))
    await gotoLanding(page)
    await expect(section(page, 'training').getByTestId('fallback-trade')).toHaveCount(9)
  })

  test("'Explore All Training Modules' goes to the learning hub", async ({ page }) => {
    await gotoLanding(page)
    await page.getByRole('link', { name: 'Explore All Training Modules' }).click()
    await expect(page).toHaveURL(/\/learning-hub$/)
  })
})

test.describe('Analytics and Digital Twin', () => {
  test('four analytics cards; Watch Analytics Overview goes to /analytics', async ({ page }) => {
    await gotoLanding(page)
    const analytics = section(page, 'analytics')
    await expect(analytics.getByRole('heading', { level: 3 })).toHaveCount(4)
    await analytics.getByRole('link', { name: 'Watch Analytics Overview' }).click()
    await expect(page).toHaveURL(/\/analytics$/)
  })

  test('the twin tiles are fixed; Explore Digital Twin Demo goes to /digital-twin', async ({ page }) => {
    await gotoLanding(page)
    await expect(page.getByTestId('twin-temperature')).toHaveText('Normal')
    await expect(page.getByTestId('twin-performance')).toHaveText('94.2%')
    await expect(page.getByTestId('twin-alerts')).toHaveText('0')
    await expect(section(page, 'digital-twin').getByRole('listitem')).toHaveCount(4)
    await page.getByRole('link', { name: 'Explore Digital Twin Demo' }).click()
    await expect(page).toHaveURL(/\/digital-twin$/)
  })
})

test.describe('calls', () => {
  test('reads the six endpoints of §7; failing unused reads leave the page whole', async ({ page }) => {
    const paths = [
      '/api/analytics/dashboard-stats',
      '/api/training-modules',
      '/api/trade-categories',
      '/api/digital-twin-equipment',
      '/api/ai-learning/learning-preferences',
      '/api/ai-learning/skill-assessments',
    ]
    const seen = new Set<string>()
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname
      if (r.method() === 'GET' && paths.includes(path)) seen.add(path)
    })
    await page.route(/\/api\/(digital-twin-equipment|ai-learning\/.*)$/, (route) =>
      route.fulfill({ status: 404, json: { message: 'no API endpoint' } }),
    )
    await gotoLanding(page)
    await expect.poll(() => [...seen].sort()).toEqual([...paths].sort())
    await expect(page.getByTestId('twin-performance')).toHaveText('94.2%')
    await expect(section(page, 'training').getByTestId('server-module').first()).toBeVisible()
  })
})

test.describe('demo request form', () => {
  async function openForm(page: Page) {
    await gotoLanding(page)
    await page.getByRole('button', { name: 'Request Analytics Demo' }).click()
    const dialog = page.getByRole('dialog', { name: 'Request Analytics Demo' })
    await expect(dialog).toBeVisible()
    return dialog
  }

  test("shows each field's error from the server, then stores the request", async ({ page }) => {
    const dialog = await openForm(page)
    await expect(dialog.getByLabel('Area of interest (optional)')).toHaveValue('analytics')
    await dialog.getByRole('button', { name: 'Send request' }).click()
    await expect(dialog.getByText('Name is required.')).toBeVisible()
    await expect(dialog.getByText('Email is required.')).toBeVisible()
    await expect(dialog.getByText('Organisation is required.')).toBeVisible()
    await expect(dialog.getByText('Message is required.')).toBeVisible()
    await expect(dialog.getByLabel('Your name')).toBeFocused()
    await expect(dialog.getByLabel('Your name')).toHaveAttribute('aria-invalid', 'true')

    await dialog.getByLabel('Your name').fill('Ada Lovelace')
    await expect(dialog.getByText('Name is required.')).toHaveCount(0)
    await dialog.getByLabel('Work email').fill('ada-at-example')
    await dialog.getByLabel('Organisation').fill('Local 26 JATC')
    await dialog.getByLabel('Message').fill('Hi')
    await dialog.getByRole('button', { name: 'Send request' }).click()
    await expect(dialog.getByText('Email must be an address like name@example.com.')).toBeVisible()
    await expect(dialog.getByText('Message must be at least 10 characters.')).toBeVisible()
    await expect(dialog.getByText('Name is required.')).toHaveCount(0)
    await expect(dialog.getByLabel('Work email')).toBeFocused()

    await dialog.getByLabel('Work email').fill('ada@example.com')
    await dialog.getByLabel('Message').fill('We train 40 apprentices a year; show us the safety analytics.')
    const created = page.waitForResponse((r) => r.url().endsWith('/api/demo-requests') && r.request().method() === 'POST')
    await dialog.getByRole('button', { name: 'Send request' }).click()
    expect((await created).status()).toBe(201)
    const done = page.getByRole('dialog', { name: 'Request received' })
    await expect(done).toBeVisible()
    await expect(done).toContainText('ada@example.com')
    await expect(page.getByRole('status').filter({ hasText: 'Demo request sent' })).toBeVisible()

    const stored = await (await page.request.get('/api/demo-requests')).json()
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', organisation: 'Local 26 JATC', interest: 'analytics' })

    await done.getByRole('button', { name: 'Close' }).first().click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Request Analytics Demo' })).toBeFocused()
  })

  test('opens and closes by keyboard', async ({ page }) => {
    await gotoLanding(page)
    const trigger = page.getByRole('button', { name: 'Request Analytics Demo' })
    await trigger.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Request Analytics Demo' })
    await expect(dialog.getByLabel('Your name')).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
    await expect(trigger).toBeFocused()
  })

  test('past the per-learner limit the form says so', async ({ page }) => {
    await gotoLanding(page)
    const body = { name: 'Ada', email: 'ada@example.com', organisation: 'JATC', message: 'Please show us around.', interest: '' }
    for (let i = 0; i < 5; i++) expect((await page.request.post('/api/demo-requests', { data: body })).status()).toBe(201)
    await page.getByRole('button', { name: 'Request Analytics Demo' }).click()
    const dialog = page.getByRole('dialog', { name: 'Request Analytics Demo' })
    await dialog.getByLabel('Your name').fill('Ada')
    await dialog.getByLabel('Work email').fill('ada@example.com')
    await dialog.getByLabel('Organisation').fill('JATC')
    await dialog.getByLabel('Message').fill('Please show us around once more.')
    await dialog.getByRole('button', { name: 'Send request' }).click()
    await expect(dialog.getByRole('alert')).toHaveText(/You have sent 5 demo requests in the last hour/)
  })
})

test.describe('accessibility', () => {
  test('axe finds no serious or critical violation on /original', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' }) // sections shown at once, no fade in progress
    await gotoLanding(page)
    await expect(section(page, 'training').getByTestId('server-module').first()).toBeVisible()
    await expect(page.getByTestId('stat-totalXrSessions')).not.toHaveText('…')
    const results = await new AxeBuilder({ page }).analyze()
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
    expect(serious).toEqual([])
  })

  test('axe finds no serious or critical violation in the demo form with errors shown', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await gotoLanding(page)
    await page.getByRole('button', { name: 'Request Analytics Demo' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Send request' }).click()
    await expect(dialog.getByText('Name is required.')).toBeVisible()
    const results = await new AxeBuilder({ page }).include('[role="dialog"]').analyze()
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])
  })
})
