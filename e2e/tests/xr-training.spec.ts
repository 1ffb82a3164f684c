import { expect as baseExpect, test as base, type Page, type Request } from '../support/test'
import AxeBuilder from '@axe-core/playwright'
import { startFreshServer, type FreshServer } from '../support/fresh-server'
import { installWebXREmulator, pressSelect, selectWithController, xrRemote, xrSessionActive } from '../support/webxr'

// WebGL is software-rendered here and the machine is shared: allow slow frames.
const expect = baseExpect.configure({ timeout: 20_000 })

// Safety alerts reach every client of a server and interrupt each with an
// alert dialog, so an alert sent here would block another test's page. Each
// worker runs this file on a server of its own.
const test = base.extend<object, { xrServer: FreshServer }>({
  xrServer: [
    async ({}, use) => {
      const server = await startFreshServer()
      await use(server)
      await server.stop()
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ xrServer }, use) => use(xrServer.base),
})

// The lockout/tagout module trains in the scene of the same id (internal/training/scenes.go).
const MODULE = 'electrical-lockout-tagout'

interface SceneObject {
  id: string
  label: string
  position: [number, number, number]
}
interface Scene {
  objects: SceneObject[]
  steps: { id: string; target: string; action: string; safetyCheckId?: string; minDurationMs: number }[]
}

async function loadScene(page: Page): Promise<{ moduleTitle: string; scene: Scene }> {
  const res = await page.request.get(`/api/training-modules/${MODULE}/xr-content`)
  expect(res.ok()).toBe(true)
  return res.json()
}

function objectAt(scene: Scene, id: string) {
  const o = scene.objects.find((x) => x.id === id)
  if (!o) throw new Error(`no object ${id}`)
  return { ...o, x: o.position[0], y: o.position[1], z: o.position[2] }
}

/**
 * Where a scene point appears on the desktop canvas: the player's camera
 * sits at (0, 1.7, 2.2) looking at (0, 1, -1.5) with a 60° vertical field
 * of view (scene-player.tsx).
 */
function project(p: [number, number, number], width: number, height: number): [number, number] {
  const cam = [0, 1.7, 2.2]
  const target = [0, 1, -1.5]
  const sub = (a: number[], b: number[]) => a.map((v, i) => v - b[i])
  const dot = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i], 0)
  const norm = (a: number[]) => a.map((v) => v / Math.hypot(...a))
  const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
  const f = norm(sub(target, cam))
  const r = norm(cross(f, [0, 1, 0]))
  const u = cross(r, f)
  const d = sub(p, cam)
  const z = dot(d, f)
  const t = Math.tan((60 * Math.PI) / 360)
  const nx = dot(d, r) / (z * t * (width / height))
  const ny = dot(d, u) / (z * t)
  return [((nx + 1) / 2) * width, ((1 - ny) / 2) * height]
}

/** Clicks a scene object on the desktop canvas, checking first that the pointer is on it. */
async function clickObject(page: Page, object: SceneObject) {
  const canvas = page.getByRole('img', { name: /3D training scene/ }).locator('canvas')
  const box = await canvas.boundingBox()
  if (!box) throw new Error('no canvas')
  const [px, py] = project(object.position, box.width, box.height)
  const pointer = page.getByTestId('xr-pointer')
  // Probe a few pixels around the projection in case of rounding at the edges.
  for (const [dx, dy] of [[0, 0], [0, 4], [0, -4], [4, 0], [-4, 0], [0, 8], [0, -8]]) {
    await page.mouse.move(box.x + px + dx, box.y + py + dy)
    try {
      await expect(pointer).toHaveText(`Pointing at: ${object.label}`, { timeout: 2000 })
      await page.mouse.click(box.x + px + dx, box.y + py + dy)
      return
    } catch {
      // try the next probe
    }
  }
  throw new Error(`could not point at ${object.label}`)
}

function step(page: Page, id: string) {
  return page.locator(`li[data-step-id="${id}"]`)
}

/**
 * Waits, in real time, until step n can be completed. The player holds each
 * step for its minimum duration (the scene's minDurationMs: 1.5 s to select,
 * 2 s to grab, 3 s for a safety check) because the server verifies the
 * session's pace against its own wall clock. Playwright's clock cannot
 * stand in for the wait: a faked page clock would record sessionTimes the
 * server never saw pass, and the session would be unverified.
 */
async function waitForStep(page: Page, n: number) {
  await expect(page.getByRole('button', { name: `Complete step ${n}` })).toBeEnabled()
}

async function expectToast(page: Page, title: string | RegExp, description?: string | RegExp) {
  const region = page.getByRole('region', { name: /Notifications/ })
  await expect(region.getByText(title)).toBeVisible()
  if (description) await expect(region.getByText(description)).toBeVisible()
}

/** Collects the PATCH bodies the page sends for XR sessions. */
function recordPatches(page: Page) {
  const bodies: Record<string, any>[] = []
  page.on('request', (req: Request) => {
    if (req.method() === 'PATCH' && req.url().includes('/api/xr-sessions/')) bodies.push(req.postDataJSON())
  })
  return bodies
}

async function openCenter(page: Page) {
  await page.goto(`/xr-training?module=${MODULE}`)
  await expect(page.getByRole('heading', { level: 1, name: 'XR Training Center' })).toBeVisible()
  await expect(page.getByTestId('realtime-badge')).toHaveText('Realtime Connected')
  await expect(page.getByRole('img', { name: /3D training scene/ })).toBeVisible()
  await expect(page.getByRole('button', { name: 'AR Mode' })).toBeEnabled() // the 3D view is ready
}

test.describe('XR Training Center', () => {
  test.use({ viewport: { width: 1280, height: 900 } })
  test.describe.configure({ timeout: 120_000 })

  test('page shell: loading text, badges, tabs, picker and the fixed analytics figures', async ({ page }) => {
    await page.route('**/api/training-modules', async (route) => {
      await new Promise((r) => setTimeout(r, 400))
      await route.continue()
    })
    const xrContent: string[] = []
    page.on('request', (req) => {
      if (req.url().endsWith('/xr-content')) xrContent.push(req.url())
    })
    await page.goto('/xr-training')
    await expect(page.getByText('Loading XR training modules...')).toBeVisible()
    await expect(page.getByRole('heading', { level: 1, name: 'XR Training Center' })).toBeVisible()
    await expect(page.getByText('VR Not Available')).toBeVisible() // headless Chromium has no immersive VR
    await expect(page.getByText('AR Not Available')).toBeVisible()
    await expect(page.getByRole('button', { name: 'VR Mode' })).toBeDisabled()
    for (const tab of ['XR Training', 'My Progress', 'Session History', 'Analytics']) {
      await expect(page.getByRole('tab', { name: tab })).toBeVisible()
    }
    await expect(page.getByRole('heading', { name: 'Select Training Module' })).toBeVisible()
    const modules = (await (await page.request.get('/api/training-modules')).json()) as { title: string; difficulty: string; estimatedDuration: number }[]
    const picker = page.getByRole('button', { pressed: true }).or(page.getByRole('button', { pressed: false }))
    for (const m of modules.slice(0, 6)) {
      await expect(picker.filter({ hasText: m.title }).first()).toContainText(`~${m.estimatedDuration} min`)
    }
    await expect(picker.filter({ hasText: modules[6].title })).toHaveCount(0)
    // 'default' is no catalog module: none is selected, and nothing of a module's XR content or 3D scene loads.
    await expect(page.getByRole('button', { pressed: true })).toHaveCount(0)
    await expect(page.getByRole('heading', { level: 2, name: 'Training Module', exact: true })).toBeVisible()
    await expect(page.getByText('Module ID: default')).toBeVisible()
    await expect(page.getByText('Select a training module to load its 3D scene.')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Desktop Mode' })).toBeDisabled()
    await page.waitForTimeout(500)
    expect(xrContent).toEqual([])
    await expect(page.getByRole('img', { name: /3D training scene/ })).toHaveCount(0)
    // Selecting one fetches its content and shows its scene.
    await page.getByRole('button', { name: new RegExp(modules[0].title) }).click()
    await expect(page.getByRole('button', { name: new RegExp(modules[0].title) })).toHaveAttribute('aria-pressed', 'true')
    await expect(page.getByRole('heading', { level: 2, name: modules[0].title })).toBeVisible()
    await expect(page.getByRole('img', { name: /3D training scene/ })).toBeVisible()
    expect(xrContent).toHaveLength(1)

    await page.getByRole('tab', { name: 'Analytics' }).click()
    for (const text of ['Interaction Accuracy', '92%', 'Task Completion Rate', '88%', 'Safety Compliance', '96%', 'Average Session Time', '24 min', 'Desktop', '45%', 'VR', '35%', 'AR', '20%']) {
      await expect(page.getByRole('tabpanel').getByText(text, { exact: true })).toBeVisible()
    }
  })

  test('any catalog module opens from ?module=, and picking one updates the address', async ({ page }) => {
    const modules = (await (await page.request.get('/api/training-modules')).json()) as { id: string; title: string }[]
    const far = modules[20]
    await page.goto(`/xr-training?module=${far.id}`)
    await expect(page.getByRole('button', { name: new RegExp(far.title) })).toHaveAttribute('aria-pressed', 'true')
    await expect(page.getByRole('heading', { level: 2, name: far.title })).toBeVisible()
    await expect(page.getByText(`Module ID: ${far.id}`)).toBeVisible()
    await expect(page.getByText(/Scene: \/api\/xr-scenes\//)).toBeVisible()
    await page.getByRole('button', { name: new RegExp(modules[1].title) }).click()
    await expect(page).toHaveURL(new RegExp(`module=${modules[1].id}$`))
    await expect(page.getByRole('heading', { level: 2, name: modules[1].title })).toBeVisible()
  })

  test('desktop session: picker, scene steps by click and keyboard, End Session, then history and progress', async ({ page }) => {
    const { moduleTitle, scene } = await loadScene(page)
    const patches = recordPatches(page)
    await openCenter(page)
    await expect(page.getByRole('heading', { level: 2, name: moduleTitle })).toBeVisible()

    await page.getByRole('button', { name: 'Desktop Mode' }).click()
    await expectToast(page, 'Training Session Started', 'DESKTOP session is now active')
    await expect(page.getByText('DESKTOP session active')).toBeVisible()
    // Focus, lost with the mode buttons, moves on to the first step (and on from each step done in the list).
    await expect(page.getByRole('button', { name: 'Complete step 1' })).toBeFocused()

    // Steps 1 and 2 by pointing and clicking in the 3D scene.
    await waitForStep(page, 1)
    await clickObject(page, objectAt(scene, scene.steps[0].target))
    await expect(step(page, scene.steps[0].id)).toHaveAttribute('data-status', 'done')
    await waitForStep(page, 2)
    await clickObject(page, objectAt(scene, scene.steps[1].target))
    await expect(step(page, scene.steps[1].id)).toHaveAttribute('data-status', 'done')
    // Steps 3 and 4 from the keyboard; step 5 (proving the tester, a safety check) skipped; the rest from the keyboard.
    await waitForStep(page, 3)
    await page.getByRole('button', { name: 'Complete step 3' }).focus()
    await page.keyboard.press('Enter')
    await expect(step(page, scene.steps[2].id)).toHaveAttribute('data-status', 'done')
    await expect(page.getByRole('button', { name: 'Complete step 4' })).toBeFocused()
    await waitForStep(page, 4)
    await page.keyboard.press('Enter')
    await expect(step(page, scene.steps[3].id)).toHaveAttribute('data-status', 'done')
    await expect(page.getByRole('button', { name: 'Complete step 5' })).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(page.getByRole('button', { name: 'Skip step 5' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(step(page, scene.steps[4].id)).toHaveAttribute('data-status', 'skipped')
    for (const n of [6, 7]) {
      await expect(page.getByRole('button', { name: `Complete step ${n}` })).toBeFocused()
      await waitForStep(page, n)
      await page.keyboard.press('Enter')
    }
    await expect(page.getByRole('button', { name: 'Complete step 8' })).toBeFocused()
    await waitForStep(page, 8)
    await page.keyboard.press('Space')
    await expect(page.getByText('All steps done. Select End Session to record your result.')).toBeVisible()
    await expect(page.getByRole('button', { name: 'End Session' })).toBeFocused()

    // Every interaction went to the server in a periodic update, with its timestamp and sessionTime.
    await expect.poll(() => patches.flatMap((b) => b.interactionData?.interactions ?? []).length).toBe(8)
    const sent = patches.flatMap((b) => b.interactionData.interactions)
    expect(sent.map((i) => i.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    expect(sent.map((i) => i.action)).toEqual(['grab', 'click', 'click', 'grab', 'skip', 'click', 'click', 'click'])
    expect(sent.map((i) => i.input)).toEqual(['mouse', 'mouse', 'keyboard', 'keyboard', 'keyboard', 'keyboard', 'keyboard', 'keyboard'])
    for (const i of sent) {
      expect(Number.isNaN(Date.parse(i.timestamp))).toBe(false)
      expect(i.sessionTime).toBeGreaterThanOrEqual(0)
    }
    // Each step took at least its minimum, timed from the step before (a skip takes none).
    sent.forEach((i, k) => {
      if (i.action !== 'skip') expect(i.sessionTime - (k > 0 ? sent[k - 1].sessionTime : 0)).toBeGreaterThanOrEqual(scene.steps[k].minDurationMs)
    })
    expect(patches.every((b) => b.endedAt === undefined && typeof b.duration === 'number')).toBe(true)

    const ended = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.request().postDataJSON()?.endedAt !== undefined)
    await page.keyboard.press('Enter')
    const record = await (await ended).json()
    expect(record.completionStatus).toBe('completed')
    expect(record.safetyScore).toBe(92.3) // tester-proven (weight 1 of 13) skipped
    expect(record.interactionData.completionStatus).toBe('failed') // every step is required
    expect(record.interactionData.safetyChecks).toContainEqual({ id: 'tester-proven', status: 'skipped' })
    // Real use of the player is verified: order, pace and clock all check out.
    expect(record.verified).toBe(true)
    expect(record.verificationIssues).toEqual([])
    await expect(page.getByRole('status').filter({ hasText: 'Last session: not passed' })).toContainText('Verified')
    await expectToast(page, 'Session Completed', /^Training session lasted \d+ minutes$/)
    // The scene is cleared: modes are offered again, focus on the first, and no step is in progress.
    await expect(page.getByRole('button', { name: 'Desktop Mode' })).toBeEnabled()
    await expect(page.getByRole('button', { name: 'Desktop Mode' })).toBeFocused()
    await expect(page.getByRole('button', { name: 'End Session' })).toHaveCount(0)
    await expect(page.locator('li[aria-current="step"]')).toHaveCount(0)

    await page.reload() // proves the record is stored
    await page.getByRole('tab', { name: 'Session History' }).click()
    await expect(page.getByRole('heading', { name: 'Recent XR Sessions' })).toBeVisible()
    const row = page.getByTestId('session-history').getByRole('listitem').first()
    await expect(row).toContainText(moduleTitle)
    await expect(row).toContainText('DESKTOP')
    await expect(row).toContainText('0 min')
    await expect(row).toContainText(/completed/i)
    const today = await page.evaluate(() => new Date().toLocaleDateString())
    await expect(row).toContainText(today)

    await page.getByRole('tab', { name: 'My Progress' }).click()
    await expect(page.getByTestId('stat-xr-sessions')).toHaveText('1')
    await expect(page.getByTestId('stat-training-time')).toHaveText('0h')
    await expect(page.getByTestId('stat-safety-score')).toHaveText('92.3%')
    await expect(page.getByTestId('stat-achievements')).toHaveText('0') // not passed: a required step was skipped
    await expect(page.locator('li[data-trade="electrical"]')).toContainText('0% (0 of')
  })

  test('leaving a session midway ends it, for another page of the app or by reloading; the unfinished procedure fails', async ({ page }) => {
    /** Starts a desktop session and completes its first step; answers the session's record. */
    const begin = async () => {
      const started = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/xr-sessions'))
      await page.getByRole('button', { name: 'Desktop Mode' }).click()
      const record = await (await started).json()
      await waitForStep(page, 1)
      await page.getByRole('button', { name: 'Complete step 1' }).click()
      await expect(page.getByRole('button', { name: 'Complete step 2' })).toBeFocused()
      return record as { id: string; userId: string }
    }
    /** The session as the learner's history has it. */
    const stored = async (r: { id: string; userId: string }) => {
      const res = await page.request.get(`/api/users/${r.userId}/xr-sessions?limit=100`)
      expect(res.ok()).toBe(true)
      return ((await res.json()) as { id: string; completionStatus: string; outcome: string; duration: number }[]).find((s) => s.id === r.id)
    }

    await openCenter(page)
    const first = await begin()
    expect((await stored(first))?.completionStatus).toBe('in_progress')
    // Another page of the app, by its link in the header.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click()
    await expect(page).toHaveURL(/\/analytics$/)
    await expect.poll(async () => (await stored(first))?.completionStatus).toBe('completed')
    expect((await stored(first))?.outcome).toBe('failed')

    await openCenter(page)
    const second = await begin()
    await page.reload()
    await expect.poll(async () => (await stored(second))?.completionStatus).toBe('completed')
    expect((await stored(second))?.outcome).toBe('failed')
    // The page is the center again, with no session running.
    await expect(page.getByRole('button', { name: 'Desktop Mode' })).toBeEnabled()
  })

  test('VR session through the WebXR emulator: controller select completes steps, End Session in the headset', async ({ page }) => {
    await installWebXREmulator(page)
    const { scene } = await loadScene(page)
    await openCenter(page)
    await expect(page.getByText('VR Ready')).toBeVisible()
    await expect(page.getByText('AR Ready')).toBeVisible()

    await page.getByRole('button', { name: 'VR Mode' }).click()
    await expectToast(page, 'Training Session Started', 'VR session is now active')
    await expect.poll(() => xrSessionActive(page)).toBe(true)
    await expect(page.getByText('VR session active')).toBeVisible()

    const pointingAt = (label: string) => () => expect(page.getByTestId('xr-pointer')).toHaveText(`Pointing at: ${label}`)
    const first = objectAt(scene, scene.steps[0].target)
    await waitForStep(page, 1)
    await selectWithController(page, first, { aimed: pointingAt(first.label) })
    await expect(step(page, scene.steps[0].id)).toHaveAttribute('data-status', 'done')
    const second = objectAt(scene, scene.steps[1].target)
    await waitForStep(page, 2)
    await selectWithController(page, second, { hand: 'left', aimed: pointingAt(second.label) })
    await expect(step(page, scene.steps[1].id)).toHaveAttribute('data-status', 'done')

    // The in-scene Emergency Stop reaches everyone, like the page's Safety Controls.
    await selectWithController(page, { x: 0, y: 0.95, z: -0.7 })
    // Received back, it interrupts on the page (an alert dialog for after the headset comes off)
    // and in the headset: a panel in front of the learner, acknowledged with the controller.
    const dialog = page.getByRole('alertdialog', { name: 'Safety Alert: Emergency stop requested' })
    await expect(dialog).toBeVisible()
    await selectWithController(page, { x: 0, y: 1.24, z: -1 })
    await expect(dialog).toHaveCount(0)
    await expect(page.getByTestId('safety-alerts').getByRole('listitem').filter({ hasText: 'Safety Alert: Emergency stop requested' }).first()).toBeVisible()

    // The in-scene End Session button, for a learner who cannot see the page.
    const ended = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.request().postDataJSON()?.endedAt !== undefined)
    await selectWithController(page, { x: 0.45, y: 0.95, z: -0.7 })
    const record = await (await ended).json()
    expect(record.sessionType).toBe('vr')
    const inputs = record.interactionData.interactions.map((i: { input: string }) => i.input)
    expect(inputs).toEqual(['ray', 'ray'])
    expect(record.interactionData.completionStatus).toBe('failed') // four steps never done
    expect(record.verified).toBe(true)
    await expectToast(page, 'Session Completed')
    await expect.poll(() => xrSessionActive(page)).toBe(false)

    await page.getByRole('tab', { name: 'Session History' }).click()
    await expect(page.getByTestId('session-history').getByRole('listitem').first()).toContainText('VR')
  })

  test('AR session through the WebXR emulator: hand pinch completes a step', async ({ page }) => {
    await installWebXREmulator(page)
    const { scene } = await loadScene(page)
    await openCenter(page)
    await page.getByRole('button', { name: 'AR Mode' }).click()
    await expectToast(page, 'Training Session Started', 'AR session is now active')
    await expect.poll(() => xrSessionActive(page)).toBe(true)
    await expect(page.getByText('AR session active')).toBeVisible()

    await xrRemote(page, 'set_input_mode', { mode: 'hand' })
    const target = objectAt(scene, scene.steps[0].target)
    await xrRemote(page, 'set_transform', { device: 'hand-right', position: { x: 0.15, y: 1.4, z: 0 } })
    await xrRemote(page, 'look_at', { device: 'hand-right', target })
    await expect(page.getByTestId('xr-pointer')).toHaveText(`Pointing at: ${target.label}`)
    await waitForStep(page, 1)
    await pressSelect(page, 'hand-right') // a pinch
    await expect(step(page, scene.steps[0].id)).toHaveAttribute('data-status', 'done')

    const ended = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.request().postDataJSON()?.endedAt !== undefined)
    await page.getByRole('button', { name: 'End Session' }).dispatchEvent('click')
    const record = await (await ended).json()
    expect(record.sessionType).toBe('ar')
    expect(record.interactionData.interactions).toHaveLength(1)
    await expectToast(page, 'Session Completed')
    await expect.poll(() => xrSessionActive(page)).toBe(false)
  })

  test('a refused immersive request falls back to desktop and the session goes on', async ({ page }) => {
    await installWebXREmulator(page, { failRequests: true })
    const { scene } = await loadScene(page)
    const created = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/xr-sessions'))
    await openCenter(page)
    await page.getByRole('button', { name: 'VR Mode' }).click()
    await expectToast(page, 'XR Mode Unavailable', 'Falling back to desktop mode')
    expect((await (await created).json()).sessionType).toBe('desktop')
    await expect(page.getByText('DESKTOP session active')).toBeVisible()
    // Each click waits for the step's minimum time: Playwright's click waits until the button is enabled.
    for (let n = 1; n <= scene.steps.length; n++) {
      await page.getByRole('button', { name: `Complete step ${n}` }).click()
      await expect(step(page, scene.steps[n - 1].id)).toHaveAttribute('data-status', 'done')
    }
    const ended = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.request().postDataJSON()?.endedAt !== undefined)
    await page.getByRole('button', { name: 'End Session' }).click()
    const record = await (await ended).json()
    expect(record).toMatchObject({ safetyScore: 100, verified: true, verificationIssues: [] })
    await expectToast(page, 'Session Completed')
    await expect(page.getByRole('status').filter({ hasText: 'Last session: passed · safety score 100%' })).toContainText('Verified')

    // Every step done in order: the module is passed and counts towards the trade's real share.
    await page.getByRole('tab', { name: 'My Progress' }).click()
    await expect(page.getByTestId('stat-xr-sessions')).toHaveText('1')
    await expect(page.getByTestId('stat-safety-score')).toHaveText('100%')
    await expect(page.getByTestId('stat-achievements')).toHaveText('1')
    const me = await (await page.request.get('/api/me')).json()
    const analytics = await (await page.request.get(`/api/users/${me.id}/xr-analytics`)).json()
    const electrical = analytics.tradeProgress.find((t: { tradeId: string }) => t.tradeId === 'electrical')
    expect(electrical.completed).toBe(1)
    expect(electrical.percent).toBe(Math.round((100 * 1) / electrical.total))
    await expect(page.locator('li[data-trade="electrical"]')).toContainText(`${electrical.percent}% (1 of ${electrical.total} modules)`)
    await expect(page.locator('li[data-trade="plumbing"]')).toContainText('0% (0 of')
  })

  test('a one-PATCH perfect score is stored unverified, certifies nothing, and the learner sees why', async ({ page }) => {
    const { scene } = await loadScene(page)
    const stats = async () => (await page.request.get('/api/analytics/dashboard-stats')).json()
    const before = await stats()
    const start = await page.request.post('/api/xr-sessions', {
      data: { moduleId: MODULE, sessionType: 'desktop', startedAt: new Date().toISOString() },
    })
    expect(start.status()).toBe(201)
    const session = await start.json()
    // Every step, each a plausible 5 s after the last, in the one request that ends the session.
    const res = await page.request.patch(`/api/xr-sessions/${session.id}`, {
      data: {
        endedAt: new Date().toISOString(),
        completionStatus: 'completed',
        interactionData: {
          interactions: scene.steps.map((st, i) => ({ action: st.action, objectId: st.target, stepId: st.id, sessionTime: 5000 * (i + 1), seq: i })),
        },
      },
    })
    expect(res.status()).toBe(200)
    const record = await res.json()
    expect(record).toMatchObject({ completionStatus: 'completed', safetyScore: 100, verified: false })
    expect(record.interactionData.completionStatus).toBe('passed')
    expect(record.verificationIssues).toEqual([expect.stringMatching(/^Actions were recorded ahead of real time: one at \d+ s arrived when only [\d.]+ s of the session had passed\.$/)])
    const after = await stats()
    expect(after.totalCertifications).toBe(before.totalCertifications)
    expect(after.averageSafetyScore).toBe(before.averageSafetyScore)

    // The learner's history shows the session as not verified, with the reason.
    await openCenter(page)
    await page.getByRole('tab', { name: 'Session History' }).click()
    const row = page.getByTestId('session-history').getByRole('listitem').filter({ hasText: 'Not verified' }).first()
    await expect(row).toContainText('Safety 100%')
    await expect(row.getByTestId('session-unverified')).toContainText(record.verificationIssues[0])
    // It completes no module.
    await page.getByRole('tab', { name: 'My Progress' }).click()
    await expect(page.getByTestId('stat-achievements')).toHaveText('0')
  })

  test('a failed start shows Session Failed and a failed end keeps the session to retry', async ({ page }) => {
    await openCenter(page)
    let failStart = true
    await page.route('**/api/xr-sessions', (route) =>
      failStart ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"internal error"}' }) : route.continue(),
    )
    await page.getByRole('button', { name: 'Desktop Mode' }).click()
    await expectToast(page, 'Session Failed', 'Could not start training session')
    await expect(page.getByRole('button', { name: 'Desktop Mode' })).toBeEnabled()
    failStart = false

    await page.getByRole('button', { name: 'Desktop Mode' }).click()
    await expectToast(page, 'Training Session Started')
    let failEnd = true
    await page.route('**/api/xr-sessions/*', (route) =>
      failEnd && route.request().postDataJSON()?.endedAt ? route.fulfill({ status: 503, body: 'down' }) : route.continue(),
    )
    await page.getByRole('button', { name: 'End Session' }).click()
    await expectToast(page, 'Session End Error', 'Could not properly end session')
    await expect(page.getByRole('button', { name: 'End Session' })).toBeEnabled()
    failEnd = false
    await page.getByRole('button', { name: 'End Session' }).click()
    await expectToast(page, 'Session Completed')
  })

  test('a safety alert sent from one page arrives in another; every Safety Control sends its category and message', async ({ browser }) => {
    // Alerts reach every connected client: on the worker's server another
    // test's alert could interrupt these pages. A server of its own makes
    // every alert here this test's.
    const server = await startFreshServer()
    try {
      const context = () => browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: server.base })
      const trainer = await context()
      const learner = await context()
      const a = await learner.newPage()
      const b = await trainer.newPage()
      await openCenter(a)
      await openCenter(b)
      const controls = [
        ['Emergency Stop', 'emergency', 'Emergency stop requested'],
        ['Request Help', 'help', 'Need assistance'],
        ['Equipment Issue', 'equipment', 'Equipment malfunction'],
        ['Safety Concern', 'general', 'General safety concern'],
      ] as const
      for (const [button, category, message] of controls) {
        await a.getByRole('button', { name: button }).click()
        // It interrupts the other page until acknowledged, and the sender's too.
        for (const p of [b, a]) {
          const dialog = p.getByRole('alertdialog', { name: `Safety Alert: ${message}` })
          await expect(dialog).toBeVisible()
          await dialog.getByRole('button', { name: 'Acknowledge' }).click()
          await expect(dialog).toHaveCount(0)
        }
        const received = b.getByTestId('safety-alerts').getByRole('listitem').filter({ hasText: `Safety Alert: ${message}` }).first()
        await expect(received).toBeVisible()
        await expect(received).toContainText(category)
        await expect(a.getByTestId('safety-alerts').getByRole('listitem').filter({ hasText: `Safety Alert: ${message}` }).first()).toBeVisible()
      }
      const stored = (await (await a.request.get('/api/safety-alerts?limit=10')).json()) as { alertType: string; description: string }[]
      expect(stored).toHaveLength(controls.length)
      for (const [, category, message] of controls) expect(stored).toContainEqual(expect.objectContaining({ alertType: category, description: message }))
      await learner.close()
      await trainer.close()
    } finally {
      await server.stop()
    }
  })

  test('with the realtime channel down, the badge says so and an alert is reported as not sent', async ({ page }) => {
    await page.routeWebSocket(/\/ws$/, (ws) => ws.close())
    await page.goto(`/xr-training?module=${MODULE}`)
    await expect(page.getByTestId('realtime-badge')).toHaveText('Realtime Disconnected')
    const warnings: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text())
    })
    await page.getByRole('button', { name: 'Request Help' }).click()
    await expectToast(page, 'Safety alert not sent')
    expect(warnings.some((w) => w.includes('not connected'))).toBe(true)
  })

  test('no serious accessibility violations, with a session running and an alert listed', async ({ page }) => {
    await openCenter(page)
    await page.getByRole('button', { name: 'Desktop Mode' }).click()
    await expect(page.getByRole('button', { name: 'Complete step 1' })).toBeVisible()
    await page.getByRole('button', { name: 'Safety Concern' }).click()
    // With the alert dialog up, and once it is acknowledged.
    const dialog = page.getByRole('alertdialog', { name: 'Safety Alert: General safety concern' })
    await expect(dialog).toBeVisible()
    const serious = async () =>
      (await new AxeBuilder({ page }).analyze()).violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)
    expect(await serious()).toEqual([])
    await dialog.getByRole('button', { name: 'Acknowledge' }).click()
    await expect(page.getByTestId('safety-alerts').getByRole('listitem').first()).toBeVisible()
    expect(await serious()).toEqual([])
  })
})
