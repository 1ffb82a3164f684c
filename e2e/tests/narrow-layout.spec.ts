import { test, expect, type Page } from '../support/test'

/**
 * At 375 px (a small phone) no page may be wider than the screen: content
 * that does not wrap pushes the page sideways and cuts titles off.
 */
const PHONE = { width: 375, height: 740 }
/** The guided tour's completion flag (web/src/content/tour.ts). */
const TOUR_KEY = 'journeyman-tour-completed'

const pages = [
  '/',
  '/learning-hub',
  '/xr-training',
  '/ai-learning-paths',
  '/digital-twin',
  '/demo',
  '/voice-xr',
  '/personalization',
  '/analytics',
  '/unity-unreal',
  '/welding-ar-demo',
  '/advanced',
  '/live-demo',
  '/original',
  '/industries/electrical',
  '/training/safety',
  '/sign-in',
  '/sign-up',
  '/privacy',
  '/terms',
  '/security',
]

/** The elements that stick out past the right edge, to say what to fix. */
async function overflowing(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const out: string[] = []
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      const r = el.getBoundingClientRect()
      if (r.right > width + 1 && r.width > 0 && getComputedStyle(el).position !== 'fixed') {
        // Report the innermost offenders only.
        if (![...el.children].some((c) => c.getBoundingClientRect().right > width + 1)) {
          out.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].slice(0, 4).join('.')} "${(el.textContent ?? '').trim().slice(0, 40)}" right=${Math.round(r.right)}`)
        }
      }
    }
    return out.slice(0, 8)
  })
}

async function settle(page: Page) {
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
  // Loading states and lazily rendered sections finish before measuring.
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0)
  await page.waitForTimeout(300)
}

test.describe('at 375 px', () => {
  test.use({ viewport: PHONE })
  test.describe.configure({ timeout: 120_000 })

  test('no main page is wider than the screen', async ({ page }) => {
    // A returning visitor: the first-visit tour stays closed and Take Tour shows on home.
    await page.addInitScript((key) => localStorage.setItem(key, 'true'), TOUR_KEY)
    const tooWide: string[] = []
    for (const path of pages) {
      await page.goto(path)
      await settle(page)
      const width = await page.evaluate(() => document.documentElement.scrollWidth)
      if (width > PHONE.width) tooWide.push(`${path}: ${width} px wide; ${(await overflowing(page)).join('; ')}`)
    }
    expect(tooWide).toEqual([])
  })

  test('tabbing backwards up the home page, no focused control is hidden under the sticky header', async ({ page }) => {
    await page.addInitScript((key) => localStorage.setItem(key, 'true'), TOUR_KEY)
    await page.goto('/')
    await settle(page)
    await page.keyboard.press('End')
    await page.locator('footer').getByRole('link').last().focus()
    const covered: string[] = []
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Shift+Tab')
      const hit = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null
        if (!el || el === document.body || el.closest('header')) return null
        const r = el.getBoundingClientRect()
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 8))
        return top && !el.contains(top) && top.closest('header') ? (el.getAttribute('aria-label') ?? el.textContent ?? el.tagName).trim() : null
      })
      if (hit) covered.push(hit)
    }
    expect(covered).toEqual([])
  })

  test('every trade of the skills demo keeps its Skill Level inside its tile', async ({ page }) => {
    await page.goto('/demo')
    await settle(page)
    for (const trade of await page.getByRole('list', { name: 'Trades' }).getByRole('button').all()) {
      await trade.click()
      const level = page.getByTestId('skill-level')
      const [inner, outer] = await level.evaluate((dd) => [dd.scrollWidth, (dd.parentElement as HTMLElement).clientWidth])
      expect(inner, `${await level.textContent()}`).toBeLessThanOrEqual(outer)
    }
  })

  test('choosing a module in the XR Training Center brings its launcher into view', async ({ page }) => {
    await page.addInitScript((key) => localStorage.setItem(key, 'true'), TOUR_KEY)
    await page.goto('/xr-training')
    await settle(page)
    await page.getByRole('button', { name: /^Multimeter Fundamentals/ }).click()
    await expect(page.getByRole('button', { name: 'Desktop Mode' })).toBeInViewport()
  })

  test('the weld viewport holds every metric on a phone, none cut off at its edge', async ({ page }) => {
    await page.goto('/welding-ar-demo')
    const viewport = await page.getByTestId('weld-viewport').boundingBox()
    const metrics = page.getByRole('list', { name: 'Weld metrics' }).getByRole('listitem')
    await expect(metrics).toHaveCount(8)
    for (const m of await metrics.all()) {
      const box = (await m.boundingBox())!
      expect(box.y + box.height, (await m.textContent()) ?? '').toBeLessThanOrEqual(viewport!.y + viewport!.height)
    }
  })

  test('the Unity & Unreal page stays inside the screen with its scene player or live stream open', async ({ page }) => {
    await page.addInitScript((key) => localStorage.setItem(key, 'true'), TOUR_KEY)
    await page.goto('/unity-unreal')
    await page.locator('[data-module-id="unity-loto-mcc"]').getByRole('button', { name: /^Launch module/ }).click()
    await expect(page.getByRole('heading', { name: 'Scene player: Lockout/Tagout on a Motor Control Centre' })).toBeFocused()
    await page.waitForTimeout(300)
    expect(await overflowing(page)).toEqual([])
    await page.getByRole('button', { name: 'Close player' }).click()

    await page.getByRole('tab', { name: 'Unreal Streaming Projects' }).click()
    await page.locator('[data-project-id="unreal-temporary-grounds"]').getByRole('button', { name: /^Stream project/ }).click()
    await expect(page.getByRole('heading', { name: /^Live stream: / })).toBeFocused()
    await page.waitForTimeout(300)
    expect(await overflowing(page)).toEqual([])
  })

  test('the Learning Hub’s module buttons wrap their titles inside the screen', async ({ page }) => {
    await page.goto('/learning-hub')
    const picker = page.getByRole('group', { name: 'Module to launch' })
    await expect(picker.getByRole('button').first()).toBeVisible()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    for (const button of await picker.getByRole('button').all()) {
      const box = (await button.boundingBox())!
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width)
      // The whole title is there to read: nothing of it is clipped.
      expect(await button.evaluate((b) => b.scrollWidth <= b.clientWidth + 1)).toBe(true)
    }
  })

  test('a session history row gives the module title the width of the row, not a column of single words', async ({ page }) => {
    await page.goto('/xr-training')
    await expect(page.getByRole('heading', { level: 1, name: 'XR Training Center' })).toBeVisible()
    // The catalog's longest title, trained as a guest and ended at once.
    const start = await page.request.post('/api/xr-sessions', { data: { moduleId: 'electrical-lockout-tagout', sessionType: 'desktop', startedAt: new Date().toISOString() } })
    expect(start.status(), await start.text()).toBe(201)
    const { id } = (await start.json()) as { id: string }
    const end = await page.request.patch(`/api/xr-sessions/${id}`, { data: { endedAt: new Date().toISOString(), completionStatus: 'completed', duration: 30 } })
    expect(end.status(), await end.text()).toBe(200)

    await page.reload()
    await page.getByRole('tab', { name: 'Session History' }).click()
    const row = page.getByTestId('session-history').getByRole('listitem').first()
    const title = row.getByText('Lockout/Tagout and Establishing an Electrically Safe Work Condition')
    await expect(title).toBeVisible()
    const [rowBox, titleBox] = [(await row.boundingBox())!, (await title.boundingBox())!]
    expect(titleBox.width).toBeGreaterThanOrEqual(rowBox.width - 1)
  })

  test('the floating Take Tour buttons never cover the home footer’s text', async ({ page }) => {
    // A returning visitor: the tour is closed and Take Tour floats over the page.
    await page.addInitScript((key) => localStorage.setItem(key, 'true'), TOUR_KEY)
    await page.goto('/')
    const takeTour = page.getByRole('button', { name: 'Take Tour' })
    await expect(takeTour).toBeVisible()
    // It floats over the content while the page scrolls: on a phone, a round icon as small as Reset.
    expect((await takeTour.boundingBox())!.width).toBeLessThanOrEqual(40)
    // Sections below the fold render, and change size, as they come near the
    // viewport (content-visibility: auto): scroll down until the page's height
    // holds still, then scroll to the bottom and measure in the same moment.
    let lastHeight = -1
    await expect
      .poll(
        async () => {
          const height = await page.evaluate(() => {
            window.scrollTo(0, document.documentElement.scrollHeight)
            return document.documentElement.scrollHeight
          })
          const steady = height === lastHeight
          lastHeight = height
          return steady
        },
        { intervals: [400] },
      )
      .toBe(true)
    const { buttons, texts, atBottom, footerTop } = await page.evaluate(() => {
      window.scrollTo(0, document.documentElement.scrollHeight)
      const box = (r: DOMRect) => ({ x: r.x, y: r.y, width: r.width, height: r.height })
      const buttons = [...document.querySelectorAll('button')]
        .filter((b) => b.textContent?.trim() === 'Take Tour' || b.getAttribute('aria-label') === 'Reset tour')
        .map((b) => box(b.getBoundingClientRect()))
      // Every piece of footer text: text nodes' own boxes, links and icons included.
      const footer = document.querySelector('footer')!
      const texts: { text: string; x: number; y: number; width: number; height: number }[] = []
      const walker = document.createTreeWalker(footer, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent?.trim()
        if (!text) continue
        const range = document.createRange()
        range.selectNodeContents(node)
        for (const r of range.getClientRects()) texts.push({ text, ...box(r) })
      }
      for (const el of footer.querySelectorAll('a, svg')) {
        const r = el.getBoundingClientRect()
        if (r.width > 0) texts.push({ text: el.getAttribute('aria-label') ?? el.tagName, ...box(r) })
      }
      const atBottom = Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight
      return { buttons, texts, atBottom, footerTop: footer.getBoundingClientRect().top }
    })
    expect(atBottom).toBe(true)
    expect(buttons).toHaveLength(2)
    expect(texts.length).toBeGreaterThan(10)
    const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    const covered = texts.filter((t) => buttons.some((b) => overlaps(b, t))).map((t) => t.text)
    expect(covered).toEqual([])
    // They float while the page scrolls and come to rest above the footer, never over any of it.
    for (const b of buttons) expect(b.y + b.height).toBeLessThanOrEqual(footerTop)
    await page.evaluate(() => window.scrollTo(0, 0))
    await expect(takeTour).toBeInViewport()
  })
})

test('the training scene narrows with the window, from 1280 to 375 px', async ({ page }) => {
  await page.addInitScript((key) => localStorage.setItem(key, 'true'), TOUR_KEY)
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/xr-training?module=electrical-lockout-tagout')
  const scene = page.getByRole('img', { name: /^3D training scene/ })
  await expect(scene).toBeVisible()
  expect((await scene.boundingBox())!.width).toBeGreaterThan(600)
  // A tablet turned, a window dragged narrower: the canvas was drawn at its
  // 1280-px size and held the page at 811 px.
  await page.setViewportSize(PHONE)
  await expect.poll(async () => (await scene.boundingBox())!.width).toBeLessThan(PHONE.width)
  expect(await page.evaluate(() => document.documentElement.scrollWidth), (await overflowing(page)).join('; ')).toBeLessThanOrEqual(PHONE.width)
})
