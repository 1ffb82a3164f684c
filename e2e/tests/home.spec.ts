import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Locator, type Page } from '../support/test'

// The home page (spec 000 §2–§4, §8, §9) against the built binary.

const TOUR_KEY = 'journeyman-tour-completed'

// Several engineers share this machine's two cores; a page can take seconds to load.
test.describe.configure({ timeout: 60_000 })

/** Makes the page a returning visitor's, so the tour does not open by itself. */
async function returning(page: Page) {
  await page.addInitScript((key) => localStorage.setItem(key, 'true'), TOUR_KEY)
}

/** Opens the home page (at `path`) as a returning visitor. */
async function gotoHome(page: Page, path = '/') {
  await returning(page)
  await page.goto(path)
  await expect(page.getByRole('heading', { level: 1, name: 'Immersive XR Training for the Skilled Trades' })).toBeVisible({ timeout: 15_000 })
}

/**
 * Installs Playwright's clock stopped, so the tour's 2000 ms and 300 ms timers
 * (and the demo's 4 s stages) fire only when a test runs the clock.
 */
async function freezeClock(page: Page) {
  await page.clock.install({ time: new Date('2026-01-05T08:00:00Z') })
  await page.clock.pauseAt(new Date('2026-01-05T08:00:01Z'))
}

/**
 * Waits for the routed page under a stopped clock. React reveals a lazy page
 * on a timer, so the clock is stepped 10 ms at a time until the page shows:
 * the page mounted (and its timers started) at most 10 ms before this returns.
 */
async function waitForPage(page: Page) {
  const h1 = page.getByRole('heading', { level: 1 })
  for (let i = 0; i < 600 && !(await h1.isVisible()); i++) {
    await page.clock.runFor(10)
    await page.waitForTimeout(10)
  }
  await expect(h1).toBeVisible()
}

/** Opens a page with the clock stopped. */
async function gotoFrozen(page: Page, path = '/') {
  await freezeClock(page)
  await page.goto(path)
  await waitForPage(page)
}

function tourDialog(page: Page): Locator {
  return page.getByTestId('tour-guide')
}

async function box(locator: Locator) {
  const b = await locator.boundingBox()
  if (!b) throw new Error('element has no box')
  return b
}

test.describe('hero', () => {
  test('heading, four stat cards, the organisations strip and the two calls to action', async ({ page }) => {
    await gotoHome(page)
    const stats = page.getByTestId('hero-stat')
    await expect(stats).toHaveCount(4)
    await expect(stats).toHaveText([
      /85%\s*Faster Skills Acquisition/,
      /90%\s*Knowledge Retention/,
      /60%\s*Training Cost Reduction/,
      /100%\s*Safe Learning Environment/,
    ])
    const strip = page.getByRole('list', { name: 'Trusted organizations' })
    await expect(strip.getByRole('listitem')).toHaveText(['NECA', 'IBEW', 'UA', 'ABC', 'NCCER', 'AWS', 'PHCC', 'ACCA'])

    await page.getByRole('link', { name: 'Start XR Training Now' }).click()
    await expect(page).toHaveURL(/\/xr-training$/)
    await page.goBack()
    await page.getByRole('link', { name: 'Watch Live Demo' }).click()
    await expect(page).toHaveURL(/\/live-demo$/)
  })

  test('15 + 15 particles over an animated grid, stilled by reduced motion and by html.reduce-motion', async ({ page }) => {
    await gotoHome(page)
    await expect(page.getByTestId('hero-particles-drift').locator('span')).toHaveCount(15)
    await expect(page.getByTestId('hero-particles-rise').locator('span')).toHaveCount(15)
    // The grid pans on its ::before layer; the particles are spans.
    const animation = (testId: string) =>
      page.getByTestId(testId).evaluate((el) => {
        const particle = el.querySelector('span')
        return particle ? getComputedStyle(particle).animationName : getComputedStyle(el, '::before').animationName
      })
    expect(await animation('hero-grid')).toBe('hero-grid-pan')
    expect(await animation('hero-particles-drift')).toBe('hero-drift')

    await page.evaluate(() => document.documentElement.classList.add('reduce-motion'))
    expect(await animation('hero-grid')).toBe('none')
    expect(await animation('hero-particles-drift')).toBe('none')
    expect(await animation('hero-particles-rise')).toBe('none')

    await page.evaluate(() => document.documentElement.classList.remove('reduce-motion'))
    await page.emulateMedia({ reducedMotion: 'reduce' })
    expect(await animation('hero-particles-rise')).toBe('none')
    await expect.poll(() => page.getByTestId('hero-video').evaluate((v: HTMLVideoElement) => v.paused)).toBe(true)
  })

  test('the background loop plays from the primary WebM source, with the fallback text inside', async ({ page }) => {
    await gotoHome(page)
    const video = page.getByTestId('hero-video')
    await expect(video.locator('source')).toHaveCount(2)
    await expect(video.locator('source').first()).toHaveAttribute('src', '/media/hero.webm')
    await expect(video.locator('source').last()).toHaveAttribute('src', '/media/hero.mp4')
    expect(await video.evaluate((v) => v.textContent?.trim())).toBe('Your browser does not support the video tag.')
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentSrc)).toMatch(/\/media\/hero\.webm$/)
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.readyState >= 2)).toBe(true)
  })

  test('a missing primary source falls back to the MP4, which plays', async ({ page }) => {
    await page.route('**/media/hero.webm', (route) => route.fulfill({ status: 404, body: 'not found' }))
    await gotoHome(page)
    const video = page.getByTestId('hero-video')
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentSrc)).toMatch(/\/media\/hero\.mp4$/)
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.readyState >= 2)).toBe(true)
    await expect(video).toBeAttached()
  })

  test('when both sources fail the video is hidden and the failure is logged to the console', async ({ page }) => {
    const errors: string[] = []
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text())
    })
    await page.route(/\/media\/hero\.(webm|mp4)$/, (route) => route.fulfill({ status: 404, body: 'not found' }))
    await gotoHome(page)
    await expect(page.getByTestId('hero-video')).toHaveCount(0)
    await expect.poll(() => errors.some((e) => e.includes('Hero background video failed to load'))).toBe(true)
    // The page carries on without it.
    await expect(page.getByRole('link', { name: 'Start XR Training Now' })).toBeVisible()
    await expect(page.getByTestId('hero-particles-drift').locator('span')).toHaveCount(15)
  })
})

test.describe('about', () => {
  test('#about carries the forgetting curve and the reach figures, and the navigation lands on it', async ({ page }) => {
    await returning(page)
    await page.goto('/xr-training')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).click()
    await expect(page).toHaveURL(/\/#about$/)
    const about = page.locator('#about')
    await expect(about).toBeInViewport()
    await expect(about).toContainText('forget 70% of what they hear within 24 hours and nearly 90% within a month')
    for (const text of ['50K+', 'Students Trained', '95%', 'Completion Rate', '200+', 'Training Modules']) {
      await expect(about.getByText(text, { exact: true })).toBeVisible()
    }
  })
})

const programmes = [
  ['electrical-vr', 'Electrical Safety & Panel Work', 'VR', '2:30', 'OSHA 10-Hour Electrical Safety'],
  ['welding-ar', 'AR Welding Technique Trainer', 'AR', '3:15', 'AWS D1.1 Structural Steel'],
  ['hvac-mixed', 'HVAC System Diagnostics', 'Mixed Reality', '4:45', 'EPA Section 608 Universal'],
  ['plumbing-vr', 'Plumbing Systems Installation', 'VR', '3:00', 'Master Plumber License'],
  ['construction-ar', 'Construction Site Safety', 'AR', '2:45', 'Construction Safety Manager'],
] as const

test.describe('video showcase', () => {
  test('five programmes, electrical-vr by default; choosing one shows its video and details', async ({ page }) => {
    await gotoHome(page)
    const showcase = page.locator('#video-showcase')
    const detail = page.getByTestId('showcase-detail')
    await expect(detail).toHaveAttribute('data-program', 'electrical-vr')
    await expect(showcase.getByRole('list', { name: 'Training programmes' }).getByRole('button')).toHaveCount(5)
    for (const [id, title, category, duration, certification] of programmes) {
      const card = showcase.locator(`#video-showcase-${id}`)
      await card.click()
      await expect(card).toHaveAttribute('aria-pressed', 'true')
      await expect(detail).toHaveAttribute('data-program', id)
      await expect(detail.getByRole('heading', { name: title })).toBeVisible()
      await expect(page.getByTestId('showcase-category')).toHaveText(category)
      await expect(page.getByTestId('showcase-duration')).toHaveText(duration)
      await expect(page.getByTestId('showcase-certification')).toHaveText(certification)
      await expect(detail.getByRole('list', { name: 'Features' }).getByRole('listitem')).toHaveCount(4)
      await expect(page.getByTestId('showcase-video').locator('source').first()).toHaveAttribute('src', `/media/${id}.webm`)
    }
    await expect(showcase.locator('[aria-pressed="true"]')).toHaveCount(1)
  })

  test('the address chooses a programme: ?program=<id>, #video-showcase-<id>; an unknown id falls back to the first', async ({ page }) => {
    await gotoHome(page, '/?program=welding-ar')
    await expect(page.getByTestId('showcase-detail')).toHaveAttribute('data-program', 'welding-ar')
    await page.goto('/#video-showcase-hvac-mixed')
    await expect(page.getByTestId('showcase-detail')).toHaveAttribute('data-program', 'hvac-mixed')
    await expect(page.locator('#video-showcase-hvac-mixed')).toBeInViewport()
    await page.goto('/?program=no-such-programme')
    await expect(page.getByTestId('showcase-detail')).toHaveAttribute('data-program', 'electrical-vr')
    await expect(page.getByTestId('showcase-detail').getByRole('heading', { name: 'Electrical Safety & Panel Work' })).toBeVisible()
  })

  test("'Start Training' opens /xr-training in a new tab", async ({ page, context }) => {
    await gotoHome(page)
    const link = page.getByTestId('showcase-detail').getByRole('link', { name: /Start Training/ })
    await expect(link).toHaveAttribute('href', '/xr-training')
    await expect(link).toHaveAttribute('target', '_blank')
    await expect(link).toHaveAttribute('rel', /noopener/)
    const [tab] = await Promise.all([context.waitForEvent('page'), link.click()])
    await tab.waitForLoadState()
    expect(new URL(tab.url()).pathname).toBe('/xr-training')
    await expect(tab.getByRole('heading', { level: 1, name: /XR Training Center/ })).toBeVisible()
    expect(new URL(page.url()).pathname).toBe('/')
  })

  test('the three info tiles', async ({ page }) => {
    await gotoHome(page)
    const tiles = page.locator('#video-showcase').getByRole('list', { name: 'Technology' }).getByRole('heading')
    await expect(tiles).toHaveText(['VR Technology', 'AR Integration', 'Safety Compliance'])
  })

  test('a video that cannot play is replaced by the message and a link to the file', async ({ page }) => {
    await page.route(/\/media\/welding-ar\.(webm|mp4)$/, (route) => route.fulfill({ status: 404, body: 'not found' }))
    await gotoHome(page, '/?program=welding-ar')
    // The player loads nothing until asked to play.
    await page.getByTestId('showcase-video').evaluate((v: HTMLVideoElement) => v.play().catch(() => {}))
    const message = page.getByTestId('showcase-video-unsupported')
    await expect(message).toHaveText(/Your browser does not support video playback\.\s*Watch video in new tab/)
    const link = message.getByRole('link', { name: 'Watch video in new tab' })
    await expect(link).toHaveAttribute('href', '/media/welding-ar.mp4')
    await expect(link).toHaveAttribute('target', '_blank')
    // Another programme gets a fresh player.
    await page.locator('#video-showcase-plumbing-vr').click()
    await expect(page.getByTestId('showcase-video')).toBeVisible()
  })
})

test.describe('platform features and training categories', () => {
  test('the four offerings carry their anchors and go where they say', async ({ page }) => {
    await gotoHome(page)
    for (const id of ['custom-content', 'ready-made', 'portal', 'flow']) await expect(page.locator(`#${id}`)).toHaveCount(1)
    await expect(page.locator('#portal').getByRole('heading')).toHaveText('PORTAL')
    await expect(page.locator('#flow').getByRole('heading')).toHaveText('FLOW')
    const cases = [
      ['custom-content', 'Explore Custom Content', /\/unity-unreal$/],
      ['ready-made', 'Browse Training Modules', /\/xr-training$/],
      ['portal', 'See PORTAL Analytics', /\/analytics$/],
    ] as const
    for (const [id, label, url] of cases) {
      await page.locator(`#${id}`).getByRole('link', { name: label }).click()
      await expect(page).toHaveURL(url)
      await expect(page.getByText('404 Page Not Found')).toHaveCount(0)
      await page.goBack()
    }
    await page.locator('#flow').getByRole('link', { name: 'Open the FLOW Studio' }).click()
    await expect(page).toHaveURL(/\/original#authoring$/)
    await expect(page.locator('#authoring')).toBeInViewport()
  })

  test('an address with an offering anchor lands on it', async ({ page }) => {
    await gotoHome(page, '/#portal')
    await expect(page.locator('#portal')).toBeInViewport()
  })

  test("six category cards; 'Learn More' opens /training/{category}", async ({ page }) => {
    await gotoHome(page)
    const slugs = ['technical', 'onboarding', 'safety', 'teamwork', 'troubleshooting', 'hazard-recognition']
    const links = page.getByRole('link', { name: /^Learn More/ })
    await expect(links).toHaveCount(6)
    for (let i = 0; i < slugs.length; i++) await expect(links.nth(i)).toHaveAttribute('href', `/training/${slugs[i]}`)
    await page.getByRole('link', { name: 'Learn More about Hazard Recognition' }).click()
    await expect(page).toHaveURL(/\/training\/hazard-recognition$/)
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Hazard Recognition')
  })
})

test.describe('interactive trade skills demo', () => {
  const stageLabels = ['Training Overview', 'VR Environment Setup', 'Hands-On Practice', 'Skills Assessment', 'Certification']

  /**
   * The home page with the demo scrolled into view and its reveal over: the
   * section slides up 24 px in 700 ms once in view, and a click aimed while
   * it moves can land on the next button of the stage list.
   */
  async function gotoDemo(page: Page) {
    await gotoHome(page)
    await revealDemo(page)
  }

  async function revealDemo(page: Page) {
    const section = page.locator('#trade-skills-demo')
    await section.scrollIntoViewIfNeeded()
    await expect(section).toHaveAttribute('data-visible', 'true')
    await expect(section).toHaveCSS('transform', 'none')
  }

  test('four trades, electrical by default; Skill Level is the trade’s difficulty', async ({ page }) => {
    await gotoDemo(page)
    const trades = [
      ['electrical', 'Advanced', '45 min', '12', '98'],
      ['plumbing', 'Intermediate', '35 min', '8', '95'],
      ['hvac', 'Advanced', '55 min', '15', '92'],
      ['welding', 'Expert', '60 min', '18', '96'],
    ] as const
    await expect(page.getByTestId('trade-electrical')).toHaveAttribute('aria-pressed', 'true')
    for (const [id, difficulty, duration, modules, score] of trades) {
      const card = page.getByTestId(`trade-${id}`)
      await expect(card).toContainText(`Difficulty: ${difficulty}`)
      await expect(card).toContainText(`Duration: ${duration}`)
      await expect(card).toContainText(`Modules: ${modules}`)
      await expect(card).toContainText(`Safety score: ${score}`)
      await card.click()
      await expect(card).toHaveAttribute('aria-pressed', 'true')
      await expect(page.getByTestId('skill-level')).toHaveText(difficulty)
    }
  })

  test('any stage is reachable; earlier stages carry a check mark; Completion Rate = position ÷ 5', async ({ page }) => {
    await gotoDemo(page)
    const stages = page.getByRole('list', { name: 'Training stages' }).getByRole('button')
    await expect(stages).toHaveText(stageLabels.map((l, i) => new RegExp(`${i + 1}?\\s*${l}`)))
    await expect(page.getByTestId('completion-rate')).toHaveText('20%')
    const expected = ['20%', '40%', '60%', '80%', '100%']
    for (const i of [3, 0, 4, 1, 2]) {
      await stages.nth(i).click()
      await expect(stages.nth(i)).toHaveAttribute('aria-current', 'step')
      await expect(page.getByTestId('completion-rate')).toHaveText(expected[i])
      await expect(page.getByTestId('demo-panel').getByTestId('stage-check')).toHaveCount(i)
      for (let j = 0; j < 5; j++) {
        await expect(stages.nth(j)).toHaveAttribute('data-status', j < i ? 'done' : j === i ? 'current' : 'upcoming')
      }
    }
    await expect(page.getByRole('progressbar', { name: 'Completion rate' })).toHaveAttribute('aria-valuenow', '60')
  })

  test('play shows progress and advances a stage every 4 s; pause stops; restart resets', async ({ page }) => {
    await returning(page)
    await gotoFrozen(page)
    await revealDemo(page)
    const panel = page.getByTestId('demo-panel')
    const status = page.getByTestId('demo-status')
    await expect(status).toHaveText('')
    await page.getByRole('button', { name: 'Play demo' }).click()
    await expect(status).toHaveText('Training in progress...')
    await expect(panel).toHaveAttribute('data-stage', 'overview')
    await page.clock.runFor(4000)
    await expect(panel).toHaveAttribute('data-stage', 'setup')
    await expect(page.getByTestId('completion-rate')).toHaveText('40%')
    await page.getByRole('button', { name: 'Pause demo' }).click()
    await expect(status).toHaveText('')
    await page.clock.runFor(12_000)
    await expect(panel).toHaveAttribute('data-stage', 'setup')

    await page.getByRole('button', { name: 'Play demo' }).click()
    await page.clock.runFor(4000)
    await expect(panel).toHaveAttribute('data-stage', 'hands_on')
    await page.clock.runFor(4000)
    await expect(panel).toHaveAttribute('data-stage', 'assessment')
    await page.clock.runFor(4000)
    await expect(panel).toHaveAttribute('data-stage', 'completion')
    // The run is complete: it stops on Certification.
    await expect(panel).toHaveAttribute('data-playing', 'false')
    await expect(status).toHaveText('')

    await page.getByRole('button', { name: 'Restart demo' }).click()
    await expect(panel).toHaveAttribute('data-stage', 'overview')
    await expect(page.getByTestId('completion-rate')).toHaveText('20%')
  })

  test('the panel video follows play/pause; volume toggles mute', async ({ page }) => {
    await gotoHome(page)
    const video = page.getByTestId('demo-video')
    expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true)
    await page.getByRole('button', { name: 'Unmute demo' }).click()
    expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(false)
    await page.getByRole('button', { name: 'Mute demo' }).click()
    expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true)
    await page.getByRole('button', { name: 'Play demo' }).click()
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused)).toBe(true)
    await page.getByRole('button', { name: 'Pause demo' }).click()
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true)
  })

  test('fullscreen uses the Fullscreen API on the demo panel', async ({ page }) => {
    await gotoHome(page)
    await page.getByRole('button', { name: 'Enter fullscreen' }).click()
    await expect.poll(() => page.evaluate(() => document.fullscreenElement?.getAttribute('data-testid'))).toBe('demo-panel')
    await page.getByRole('button', { name: 'Exit fullscreen' }).click()
    await expect.poll(() => page.evaluate(() => document.fullscreenElement)).toBeNull()
    await expect(page.getByRole('button', { name: 'Enter fullscreen' })).toBeVisible()
  })

  test("'Start Full Training' opens a real module of the chosen trade; 'Request Live Demo' opens /live-demo", async ({ page, request }) => {
    const modules: Array<{ id: string; tradeId: string }> = await (await request.get('/api/training-modules')).json()
    await gotoHome(page)
    const catalog = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/training-modules')
    await page.locator('#trade-skills-demo').scrollIntoViewIfNeeded()
    expect((await catalog).status()).toBe(200)
    const start = page.getByRole('link', { name: 'Start Full Training' })
    for (const trade of ['plumbing', 'hvac', 'welding', 'electrical']) {
      await page.getByTestId(`trade-${trade}`).click()
      const href = await start.getAttribute('href')
      const id = new URL(href ?? '', 'http://x').searchParams.get('module')
      expect(modules.find((m) => m.id === id)?.tradeId).toBe(trade)
    }
    await start.click()
    await expect(page).toHaveURL(/\/xr-training\?module=electrical-[a-z-]+$/)
    await page.goBack()
    await page.getByRole('link', { name: 'Request Live Demo' }).click()
    await expect(page).toHaveURL(/\/live-demo$/)
  })

  test('the catalog behind Start Full Training loads only when the demo comes near', async ({ page }) => {
    const calls: string[] = []
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/training-modules') calls.push(r.url())
    })
    await gotoHome(page)
    await page.waitForTimeout(1000)
    expect(calls).toHaveLength(0)
    const catalog = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/training-modules')
    await page.locator('#trade-skills-demo').scrollIntoViewIfNeeded()
    await catalog
    expect(calls).toHaveLength(1)
  })

  test('Firefox users see the notice; others do not', async ({ browser, page }) => {
    await gotoHome(page)
    await expect(page.locator('#trade-skills-demo')).toBeVisible()
    await expect(page.getByText('Firefox detected - Demo optimized for your browser')).toHaveCount(0)
    const firefox = await browser.newContext({
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
    })
    const ff = await firefox.newPage()
    await gotoHome(ff)
    await expect(ff.getByText('Firefox detected - Demo optimized for your browser', { exact: true })).toBeVisible()
    await firefox.close()
  })
})

test.describe('footer', () => {
  test('10 particles, the platform and legal links, the claims and the 2025 copyright', async ({ page }) => {
    await gotoHome(page)
    const footer = page.getByRole('contentinfo')
    await expect(page.getByTestId('footer-particles').locator('span')).toHaveCount(10)
    const pages = {
      'XR Authoring Tool': '/unity-unreal',
      'Learning Dashboard': '/learning-hub',
      Analytics: '/analytics',
      'Digital Twins': '/digital-twin',
      'Safety Training': '/training/safety',
      'Privacy Policy': '/privacy',
      'Terms of Service': '/terms',
      Security: '/security',
    }
    for (const [label, href] of Object.entries(pages)) {
      await expect(footer.getByRole('link', { name: label, exact: true })).toHaveAttribute('href', href)
    }
    for (const label of ['LinkedIn', 'Twitter', 'YouTube']) await expect(footer.getByRole('link', { name: label })).toBeVisible()
    await expect(footer.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/)
    await expect(footer).toContainText('24/7 Support Available')
    await expect(footer).toContainText('Enterprise Security')
    await expect(footer).toContainText('© 2025')
  })

  test('a platform link opens its page in the same tab, with the footer still there', async ({ page }) => {
    await gotoHome(page)
    const footer = page.getByRole('contentinfo')
    await footer.getByRole('link', { name: 'Digital Twins', exact: true }).click()
    await expect(page).toHaveURL(/\/digital-twin$/)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(page).toHaveTitle(/Digital Twin Equipment/)
    await footer.getByRole('link', { name: 'Safety Training', exact: true }).click()
    await expect(page).toHaveURL(/\/training\/safety$/)
    await expect(page).toHaveTitle(/Safety Training/)
  })
})

test.describe('guided tour', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  const steps = [
    ['welcome', 'Welcome to Journeyman XR', null],
    ['xr-training', 'XR Training Center', '[data-tour="nav-training"]'],
    ['live-demo', 'Watch a Live Demo', '[data-tour="hero-live-demo"]'],
    ['industries', 'Training for Every Trade', '[data-tour="nav-industries"]'],
    ['analytics', 'Track Progress with Analytics', '[data-tour="nav-analytics"]'],
    ['learning-hub', 'Learning Hub Resources', '[data-tour="nav-learning-hub"]'],
    ['safety-first', 'Safety First', '[data-tour="hero-safety"]'],
    ['ready-to-start', 'Ready to Start?', null],
  ] as const

  test('a first visit opens the tour after 2000 ms, as a named non-modal dialog holding focus', async ({ page }) => {
    await gotoFrozen(page)
    await page.clock.runFor(1985)
    await expect(tourDialog(page)).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Take Tour' })).toHaveCount(0)
    await page.clock.runFor(15)
    const dialog = page.getByRole('dialog', { name: 'Welcome to Journeyman XR' })
    await expect(dialog).toBeVisible()
    await expect(dialog).toHaveAttribute('aria-modal', 'false')
    await expect(dialog).toBeFocused()
    await expect(dialog.getByRole('button', { name: 'Previous' })).toBeDisabled()
    await expect(page.getByRole('button', { name: 'Take Tour' })).toHaveCount(0)
    expect(await page.evaluate((key) => localStorage.getItem(key), TOUR_KEY)).toBeNull()
  })

  test('Tab goes round the tour’s controls rather than out to the footer', async ({ page }) => {
    await gotoFrozen(page)
    await page.clock.runFor(2000)
    const dialog = page.getByRole('dialog', { name: 'Welcome to Journeyman XR' })
    await expect(dialog).toBeFocused()
    const skip = dialog.getByRole('button', { name: /skip/i })
    const next = dialog.getByRole('button', { name: 'Next' })
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab')
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true)
    }
    await skip.focus()
    await page.keyboard.press('Shift+Tab')
    await expect(next).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(skip).toBeFocused()
    expect(await page.evaluate(() => window.scrollY)).toBe(0)
  })

  test('eight steps in order; each guide sits 20 px from its highlighted target after 300 ms', async ({ page }) => {
    test.setTimeout(90_000)
    await gotoFrozen(page)
    await page.clock.runFor(2000)
    const dialog = tourDialog(page)
    for (const [i, [id, title, target]] of steps.entries()) {
      await expect(dialog).toHaveAttribute('data-step', id)
      await expect(dialog.getByRole('heading', { name: title })).toBeVisible()
      await expect(dialog).toContainText(`Step ${i + 1} of 8`)
      await expect(dialog).toHaveAttribute('data-positioned', 'false')
      await page.clock.runFor(300)
      await expect(dialog).toHaveAttribute('data-positioned', 'true')
      if (target) {
        const targetEl = page.locator(target)
        await expect(targetEl).toHaveAttribute('data-tour-highlighted', 'true')
        const highlight = page.getByTestId('tour-highlight')
        await expect(highlight.locator('.tour-particle')).toHaveCount(12)
        const t = await box(targetEl)
        const g = await box(dialog)
        const h = await box(highlight)
        // The highlight surrounds the target.
        expect(h.x).toBeLessThanOrEqual(t.x)
        expect(h.y).toBeLessThanOrEqual(t.y)
        expect(h.x + h.width).toBeGreaterThanOrEqual(t.x + t.width)
        expect(h.y + h.height).toBeGreaterThanOrEqual(t.y + t.height)
        const placement = await dialog.getAttribute('data-placement')
        if (placement === 'bottom') expect(Math.abs(g.y - (t.y + t.height) - 20)).toBeLessThan(1)
        else if (placement === 'top') expect(Math.abs(t.y - (g.y + g.height) - 20)).toBeLessThan(1)
        else throw new Error(`step ${id} was not placed next to its target`)
      } else {
        await expect(dialog).toHaveAttribute('data-placement', 'center')
        await expect(page.getByTestId('tour-highlight')).toHaveCount(0)
      }
      await expect(dialog.getByRole('button', { name: 'Previous' })).toBeEnabled({ enabled: i > 0 })
      if (i < steps.length - 1) await dialog.getByRole('button', { name: 'Next' }).click()
    }
    await expect(dialog.getByRole('button', { name: 'Next' })).toHaveCount(0)
    await dialog.getByRole('button', { name: 'Start Training' }).click()
    // Let time flow so React can reveal the lazily loaded next page.
    await page.clock.resume()
    await expect(page).toHaveURL(/\/xr-training$/)
    await expect(page.getByRole('heading', { level: 1, name: /XR Training Center/ })).toBeVisible()
    await expect(tourDialog(page)).toHaveCount(0)
    expect(await page.evaluate((key) => localStorage.getItem(key), TOUR_KEY)).toBe('true')
  })

  test('Previous goes back a step and the first step keeps focus in the tour', async ({ page }) => {
    await gotoFrozen(page)
    await page.clock.runFor(2000)
    const dialog = tourDialog(page)
    await dialog.getByRole('button', { name: 'Next' }).click()
    await dialog.getByRole('button', { name: 'Next' }).click()
    await expect(dialog).toHaveAttribute('data-step', 'live-demo')
    await dialog.getByRole('button', { name: 'Previous' }).click()
    await expect(dialog).toHaveAttribute('data-step', 'xr-training')
    await dialog.getByRole('button', { name: 'Previous' }).click()
    await expect(dialog).toHaveAttribute('data-step', 'welcome')
    await expect(dialog.getByRole('button', { name: 'Previous' })).toBeDisabled()
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true)
  })

  test('skip (X) stores the flag; then no auto-open, and Take Tour reopens it', async ({ page }) => {
    await gotoFrozen(page)
    await page.clock.runFor(2000)
    await tourDialog(page).getByRole('button', { name: 'Skip tour' }).click()
    await expect(tourDialog(page)).toHaveCount(0)
    expect(await page.evaluate((key) => localStorage.getItem(key), TOUR_KEY)).toBe('true')
    await expect(page.getByRole('button', { name: 'Take Tour' })).toBeVisible()

    await page.reload()
    await waitForPage(page)
    await expect(page.getByRole('button', { name: 'Take Tour' })).toBeVisible()
    await page.clock.runFor(5000)
    await expect(tourDialog(page)).toHaveCount(0)
    await page.getByRole('button', { name: 'Take Tour' }).click()
    await expect(tourDialog(page)).toHaveAttribute('data-step', 'welcome')
    await expect(page.getByRole('button', { name: 'Take Tour' })).toHaveCount(0)
  })

  test('Escape skips the tour', async ({ page }) => {
    await gotoFrozen(page)
    await page.clock.runFor(2000)
    await expect(tourDialog(page)).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(tourDialog(page)).toHaveCount(0)
    expect(await page.evaluate((key) => localStorage.getItem(key), TOUR_KEY)).toBe('true')
  })

  test('Reset tour clears the flag and reopens the tour on its first step', async ({ page }) => {
    await gotoFrozen(page)
    await page.evaluate((key) => localStorage.setItem(key, 'true'), TOUR_KEY)
    await page.reload()
    await waitForPage(page)
    await page.getByRole('button', { name: 'Reset tour' }).click()
    await expect(tourDialog(page)).toHaveAttribute('data-step', 'welcome')
    expect(await page.evaluate((key) => localStorage.getItem(key), TOUR_KEY)).toBeNull()
    await expect(page.getByRole('button', { name: 'Take Tour' })).toHaveCount(0)
  })

  test('on a phone the navigation steps are centred, since their targets are in the closed menu', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 })
    await gotoFrozen(page)
    await page.clock.runFor(2000)
    const dialog = tourDialog(page)
    await dialog.getByRole('button', { name: 'Next' }).click()
    await page.clock.runFor(300)
    await expect(dialog).toHaveAttribute('data-step', 'xr-training')
    await expect(dialog).toHaveAttribute('data-placement', 'center')
    await expect(dialog).toBeInViewport({ ratio: 1 })
  })
})

test.describe('accessibility', () => {
  async function revealAll(page: Page) {
    // Sections fade in as they scroll into view; axe checks them once shown.
    for (const section of await page.locator('[data-reveal]').all()) {
      await section.scrollIntoViewIfNeeded()
      await expect(section).toHaveAttribute('data-visible', 'true')
    }
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.waitForTimeout(800)
  }

  function serious(results: Awaited<ReturnType<AxeBuilder['analyze']>>) {
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  }

  test('axe finds no serious or critical violation on /', async ({ page }) => {
    test.setTimeout(120_000)
    await gotoHome(page)
    await revealAll(page)
    expect(serious(await new AxeBuilder({ page }).analyze())).toEqual([])
  })

  test('axe finds no serious or critical violation with the tour open', async ({ page }) => {
    test.setTimeout(120_000)
    await gotoFrozen(page)
    await page.clock.runFor(2000)
    await tourDialog(page).getByRole('button', { name: 'Next' }).click()
    await page.clock.runFor(300)
    await expect(tourDialog(page)).toHaveAttribute('data-positioned', 'true')
    // axe schedules its own work on timers.
    await page.clock.resume()
    expect(serious(await new AxeBuilder({ page }).include('[data-testid="tour-guide"]').analyze())).toEqual([])
  })

  test('every control of the demo works from the keyboard', async ({ page }) => {
    await gotoHome(page)
    await page.getByTestId('trade-hvac').focus()
    await page.keyboard.press('Enter')
    await expect(page.getByTestId('skill-level')).toHaveText('Advanced')
    await page.getByTestId('stage-assessment').focus()
    await page.keyboard.press('Space')
    await expect(page.getByTestId('completion-rate')).toHaveText('80%')
    await page.keyboard.press('Tab')
    await expect(page.getByTestId('stage-completion')).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page.getByTestId('completion-rate')).toHaveText('100%')
  })
})
