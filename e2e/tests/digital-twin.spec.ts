import AxeBuilder from '@axe-core/playwright'
import { expect, test as base, type Page, type Request } from '../support/test'
import { startFreshServer, type FreshServer } from '../support/fresh-server'
import { signedInInstructor, signedInLearner, type Account, type StorageState } from '../support/staff'

// Seed 001 §2/§7/§9 on the real server: the polling is proven with
// Playwright's clock (timers of the page run only when the test says so),
// and every other check reads what the server really answered.

// Anyone watches the twins; only an instructor or admin of an organisation
// drives them (issue 10). The instructor comes from an admin made with the
// CLI, which works on a database of its own: each worker runs this file on a
// server of its own, with one instructor and one learner signed in there.
interface TwinServer extends FreshServer {
  instructor: Account
  as: { instructor: StorageState; learner: StorageState }
}
type Who = 'guest' | 'learner' | 'instructor'
const test = base.extend<{ who: Who }, { twinServer: TwinServer }>({
  twinServer: [
    async ({ playwright }, use) => {
      const server = await startFreshServer()
      try {
        const { instructor, storageState } = await signedInInstructor(playwright, server)
        const learner = await signedInLearner(playwright, server)
        await use({ ...server, instructor, as: { instructor: storageState, learner } })
      } finally {
        await server.stop()
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ twinServer }, use) => use(twinServer.base),
  who: ['guest', { option: true }],
  storageState: async ({ twinServer, who, storageState }, use) => use(who === 'guest' ? storageState : twinServer.as[who]),
})

const EQUIPMENT = '/api/digital-twin/equipment'
const ALERTS = '/api/digital-twin/equipment-alerts'

interface Equipment {
  id: string
  name: string
  type: string
  communicationProtocol: string
  sensorData: Record<string, { value: number; unit: string }>
}

/** Counts the page's GETs of the three polled calls. */
function countPolls(page: Page) {
  const counts = { equipment: 0, alerts: 0, streams: new Map<string, number>(), inFlight: 0 }
  const polled = (req: Request) => req.method() === 'GET' && new URL(req.url()).pathname.startsWith('/api/digital-twin/')
  const done = (req: Request) => {
    if (polled(req)) counts.inFlight--
  }
  page.on('requestfinished', done)
  page.on('requestfailed', done)
  page.on('request', (req: Request) => {
    if (!polled(req)) return
    counts.inFlight++
    const path = new URL(req.url()).pathname
    if (path === EQUIPMENT) counts.equipment++
    else if (path === ALERTS) counts.alerts++
    else {
      const m = /^\/api\/digital-twin\/equipment\/([^/]+)\/data-streams$/.exec(path)
      if (m) counts.streams.set(decodeURIComponent(m[1]), (counts.streams.get(decodeURIComponent(m[1])) ?? 0) + 1)
    }
  })
  return {
    equipment: () => counts.equipment,
    alerts: () => counts.alerts,
    streams: (id?: string) => (id ? (counts.streams.get(id) ?? 0) : [...counts.streams.values()].reduce((a, b) => a + b, 0)),
    /**
     * Waits until no polled call is in flight, plus a moment for the page to
     * take in the answer: TanStack Query never overlaps fetches of one query,
     * so a tick that found the last fetch still running would fold into it.
     */
    quiet: async () => {
      await expect.poll(() => counts.inFlight).toBe(0)
      await page.waitForTimeout(150)
    },
  }
}

async function fleet(page: Page): Promise<Equipment[]> {
  const res = await page.request.get(EQUIPMENT)
  expect(res.ok()).toBe(true)
  return (await res.json()) as Equipment[]
}

/**
 * Under Playwright's clock no timer fires unless the test moves time, and
 * TanStack Query hands results to components through setTimeout(0). This
 * fires the due zero-delay timers without moving the clock, until cond holds.
 */
async function settle(page: Page, cond: () => boolean | Promise<boolean>) {
  await expect
    .poll(
      async () => {
        await page.clock.runFor(0)
        return await cond()
      },
      { timeout: 10_000 },
    )
    .toBe(true)
}

/** Records, in the page's (fake) time, when each API path was fetched. */
async function recordFetchTimes(page: Page) {
  await page.addInitScript(() => {
    const times: Record<string, number[]> = {}
    ;(window as unknown as { __fetchTimes: typeof times }).__fetchTimes = times
    const original = window.fetch
    window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
      const path = new URL(url, location.href).pathname
      ;(times[path] ??= []).push(Date.now())
      return original.call(this, input, init)
    }
  })
}

async function fetchTimes(page: Page, path: string): Promise<number[]> {
  return page.evaluate((p) => (window as unknown as { __fetchTimes: Record<string, number[]> }).__fetchTimes[p] ?? [], path)
}

/**
 * The page-time gaps between fetches are the interval, give or take the
 * 100 ms the test steps past each tick (a fetch started from a promise
 * continuation is stamped when the clock stops, not when the tick fired).
 */
function expectGaps(times: number[], interval: number, count: number) {
  const gaps = times.slice(1).map((t, i) => t - times[i])
  expect(gaps, `gaps ${gaps.join(', ')}`).toHaveLength(count)
  for (const g of gaps) {
    expect(g).toBeGreaterThanOrEqual(interval - 100)
    expect(g).toBeLessThanOrEqual(interval + 100)
  }
}

const card = (page: Page, id: string) => page.locator(`[data-testid="equipment-card"][data-equipment-id="${id}"]`)
const detail = (page: Page) => page.getByTestId('equipment-detail')

async function open(page: Page, eq: Equipment) {
  await card(page, eq.id).getByRole('button', { name: eq.name }).click()
  await expect(detail(page).getByRole('heading', { level: 2, name: eq.name })).toBeVisible()
}

/** Formats a reading the way the page does. */
const shown = (value: number, unit: string) => {
  const n = value.toLocaleString('en-US', { maximumFractionDigits: 2 })
  return unit === '%' ? `${n}%` : `${n} ${unit}`
}

test.describe('digital twin page', () => {
  test('cards show 4 readings, badges and the hours bar scaled to 10,000 h', async ({ page }) => {
    const list = await fleet(page)
    expect(list.length).toBeGreaterThanOrEqual(8)
    await page.goto('/digital-twin')
    await expect(page.getByRole('heading', { level: 1, name: 'Digital Twin Equipment' })).toBeVisible()
    await expect(page.getByTestId('equipment-card')).toHaveCount(list.length)
    for (const eq of list) {
      const c = card(page, eq.id)
      const keys = Object.keys(eq.sensorData)
      await expect(c.locator('dd[data-sensor]')).toHaveCount(Math.min(4, keys.length))
      if (keys.length > 0) {
        await expect(c.locator('dd[data-sensor]').first()).toHaveAttribute('data-sensor', keys[0])
      }
      const hours = (eq as unknown as { operatingHours: number }).operatingHours
      await expect(c.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(Math.min(100, (hours / 10_000) * 100)))
      await expect(c.locator('[data-kind="Status"]')).toHaveText(/Status: (Operational|Maintenance|Offline|Error)/)
      await expect(c.locator('[data-kind="Alert level"]')).toHaveText(/Alert level: (Normal|Warning|Critical|Emergency)/)
      await expect(c.locator('[data-kind="Sync"]')).toHaveText(/Sync: (Synced|Syncing|Error|Disconnected)/)
    }
  })

  test('a status outside seed 001 §4 is shown as Unknown', async ({ page }) => {
    // The server only stores valid states, so the real answer is altered in flight.
    await page.route(EQUIPMENT, async (route) => {
      const res = await route.fetch()
      const list = (await res.json()) as (Equipment & { status: string })[]
      list[0].status = 'standby'
      await route.fulfill({ response: res, json: list })
    })
    await page.goto('/digital-twin')
    await expect(page.getByTestId('equipment-card').first().locator('[data-kind="Status"]')).toHaveText('Status: Unknown')
  })

  test('polls equipment every 5 s, alerts every 10 s, streams every 2 s only while a twin is selected', async ({ page }) => {
    test.setTimeout(90_000) // many deliberate real-time waits between clock steps
    // The page's clock is paused from its first moment: no timer fires until
    // the test moves time, so the intervals are measured in the page's own time.
    const t0 = Date.now()
    await page.clock.install({ time: t0 })
    await page.clock.pauseAt(t0 + 1_000)
    await recordFetchTimes(page)
    // TanStack Query counts an interval from the query's last update, and a live
    // equipment_update is one: other tests drive twins meanwhile, so this page's
    // socket is held open and quiet, and only the polls move the lists.
    await page.routeWebSocket(/\/ws$/, () => {})
    const polls = countPolls(page)
    const [eq] = await fleet(page)
    await page.goto('/digital-twin')
    // React reveals the lazily loaded page after its 300 ms fallback throttle, so time must move a
    // little; but not once the first fetches have begun, or their answers (from which the next
    // intervals count) would land later in the page's time than they began.
    await expect
      .poll(
        async () => {
          await page.clock.runFor(polls.equipment() + polls.alerts() === 0 ? 100 : 0)
          return card(page, eq.id).isVisible()
        },
        { timeout: 15_000 },
      )
      .toBe(true)
    expect(polls.equipment()).toBe(1)
    expect(polls.alerts()).toBe(1)
    const [mounted] = await fetchTimes(page, EQUIPMENT)
    const advanceTo = async (offset: number) => page.clock.runFor(mounted + offset - (await page.evaluate(() => Date.now())))

    await advanceTo(4_900)
    await page.waitForTimeout(300) // real time for a request, if one were made, to show up
    expect(polls.equipment()).toBe(1)
    await advanceTo(5_100)
    await expect.poll(polls.equipment).toBe(2)
    expect(polls.alerts()).toBe(1)
    await polls.quiet()
    await advanceTo(10_100)
    await expect.poll(polls.equipment).toBe(3)
    await expect.poll(polls.alerts).toBe(2)
    // One interval at a time, each after the last fetch has landed (see quiet).
    await polls.quiet()
    await advanceTo(15_100)
    await expect.poll(polls.equipment).toBe(4)
    await polls.quiet()
    await advanceTo(20_100)
    await expect.poll(polls.equipment).toBe(5)
    await expect.poll(polls.alerts).toBe(3)
    expect(polls.streams()).toBe(0) // nothing selected: no stream calls at all
    expectGaps(await fetchTimes(page, EQUIPMENT), 5_000, 4)
    expectGaps(await fetchTimes(page, ALERTS), 10_000, 2)

    await card(page, eq.id).getByRole('button', { name: eq.name }).click()
    await settle(page, () => detail(page).isVisible())
    await expect.poll(() => polls.streams(eq.id)).toBe(1)
    const [selected] = await fetchTimes(page, `${EQUIPMENT}/${eq.id}/data-streams`)
    const advanceFromSelect = async (offset: number) => page.clock.runFor(selected + offset - (await page.evaluate(() => Date.now())))
    await advanceFromSelect(1_900)
    await page.waitForTimeout(300) // real time for a request, if one were made, to show up
    expect(polls.streams(eq.id)).toBe(1)
    await polls.quiet()
    await advanceFromSelect(2_100)
    await expect.poll(() => polls.streams(eq.id)).toBe(2)
    for (const [offset, count] of [
      [4_100, 3],
      [6_100, 4],
      [8_100, 5],
    ]) {
      await polls.quiet()
      await advanceFromSelect(offset)
      await expect.poll(() => polls.streams(eq.id)).toBe(count)
    }
    expectGaps(await fetchTimes(page, `${EQUIPMENT}/${eq.id}/data-streams`), 2_000, 4)

    await detail(page).getByRole('button', { name: `Close ${eq.name} details` }).click()
    await settle(page, async () => (await detail(page).count()) === 0)
    const streamsBefore = polls.streams()
    const equipmentBefore = polls.equipment()
    for (let i = 1; i <= 2; i++) {
      await page.clock.runFor(5_000)
      await expect.poll(polls.equipment).toBe(equipmentBefore + i) // the page is still polling…
      await polls.quiet()
    }
    await polls.quiet()
    expect(polls.streams()).toBe(streamsBefore) // …but no longer the streams
  })

  test('keyboard: Enter on a card opens the panel, arrows move through the four tabs', async ({ page }) => {
    const [eq] = await fleet(page)
    await page.goto('/digital-twin')
    const button = card(page, eq.id).getByRole('button', { name: eq.name })
    await button.focus()
    await page.keyboard.press('Enter')
    await expect(button).toHaveAttribute('aria-expanded', 'true')
    const heading = detail(page).getByRole('heading', { level: 2, name: eq.name })
    await expect(heading).toBeFocused()
    const tabs = detail(page).getByRole('tab')
    await expect(tabs).toHaveText(['Overview', 'Sensors', 'Protocols', 'Maintenance'])
    await tabs.first().focus()
    for (const name of ['Sensors', 'Protocols', 'Maintenance']) {
      await page.keyboard.press('ArrowRight')
      await expect(detail(page).getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true')
      await expect(detail(page).getByRole('tabpanel', { name })).toBeVisible()
    }
    await expect(detail(page).getByRole('tabpanel', { name: 'Maintenance' })).toContainText('Maintenance schedule')
    await detail(page).getByRole('button', { name: `Close ${eq.name} details` }).press('Enter')
    await expect(detail(page)).toHaveCount(0)
    await expect(button).toBeFocused()
  })

  test('the alerts list shows level, reading, threshold and time', async ({ page }) => {
    // Compare with the answer the page itself got: other tests change readings meanwhile.
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === ALERTS)
    await page.goto('/digital-twin')
    const alerts = (await (await answered).json()) as { equipmentName: string; level: string; reading: number | null; threshold: number | null }[]
    const items = page.getByTestId('equipment-alert')
    await expect(items).toHaveCount(alerts.length)
    expect(alerts.length, 'the seeded fleet has at least one alert (the offline elevator drive)').toBeGreaterThan(0)
    for (const [i, a] of alerts.entries()) {
      await expect(items.nth(i)).toContainText(a.equipmentName)
      await expect(items.nth(i).locator('[data-kind="Alert level"]')).toHaveText(new RegExp(a.level, 'i'))
      await expect(items.nth(i)).toContainText('Time')
      if (a.reading !== null && a.threshold !== null) {
        await expect(items.nth(i)).toContainText('Reading')
        await expect(items.nth(i)).toContainText('Threshold')
      }
    }
  })

  // The server refuses twin writes from anyone but staff; the page says so before anyone tries.
  const gated = [
    { who: 'guest' as const, status: 401, message: /^sign in first/, why: '' },
    { who: 'learner' as const, status: 403, message: /instructor/, why: ' You are signed in as Lena Learner, a learner.' },
  ]
  for (const { who, status, message, why } of gated) {
    test.describe(`as a ${who}`, () => {
      test.use({ who })

      test('Update Sensors and Test Protocol are disabled, saying why, with a link to sign in', async ({ page }) => {
        const explanation = `Sign in as an instructor or admin to drive equipment.${why}`
        const writes: string[] = []
        page.on('request', (r) => {
          if (r.method() === 'POST') writes.push(r.url())
        })
        const eq = (await fleet(page)).find((e) => e.communicationProtocol === 'Modbus TCP')!
        await page.goto('/digital-twin')
        await open(page, eq)
        const update = detail(page).getByRole('button', { name: 'Update Sensors' })
        await expect(update).toBeDisabled()
        await expect(update).toHaveAccessibleDescription(explanation)
        const notice = detail(page).getByTestId('drive-notice')
        await expect(notice).toHaveText(explanation)
        await expect(notice.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in?next=%2Fdigital-twin')

        await detail(page).getByRole('tab', { name: 'Protocols' }).click()
        const testProtocol = detail(page).getByRole('button', { name: 'Test Protocol' })
        await expect(testProtocol).toBeDisabled()
        await expect(testProtocol).toHaveAccessibleDescription(explanation)
        // The parameters can still be read and set; Enter in a field sends nothing.
        await detail(page).getByLabel('Register count').fill('3')
        await detail(page).getByLabel('Register count').press('Enter')
        await update.click({ force: true })
        await testProtocol.click({ force: true })
        await expect(detail(page).getByTestId('frame-request')).toHaveCount(0)
        expect(writes).toEqual([])

        const results = await new AxeBuilder({ page }).include('#main-content').analyze()
        const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
        expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([])

        // And the server would have refused them.
        for (const path of ['sensor-data', 'simulate-communication']) {
          const res = await page.request.post(`${EQUIPMENT}/${eq.id}/${path}`, { data: { sensorData: { temperature: 20 }, protocol: 'Modbus TCP', data: {} } })
          expect(res.status()).toBe(status)
          expect(((await res.json()) as { message: string }).message).toMatch(message)
        }
      })
    })
  }

  test.describe('as a signed-in instructor', () => {
    test.use({ who: 'instructor' })

    test('a reading another client stores shows at once, over the realtime channel', async ({ page }) => {
      const eq = (await fleet(page)).find((e) => e.communicationProtocol === 'Modbus TCP')!
      const frames: string[] = []
      page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(String(f.payload))))
      await page.goto('/digital-twin')
      await expect(page.getByTestId('twin-live')).toHaveText('Live: readings show as they are stored.')
      await expect.poll(() => frames.some((f) => f.includes('"watching_equipment"'))).toBe(true)

      // Another client (this account's API, outside the page) stores a reading.
      const value = Math.round((20 + Math.random() * 10) * 100) / 100
      const res = await page.request.post(`${EQUIPMENT}/${eq.id}/sensor-data`, { data: { sensorData: { temperature: value } } })
      expect(res.status(), await res.text()).toBe(200)
      await expect(card(page, eq.id).locator('dd[data-sensor="temperature"]')).toHaveText(shown(value, '°C'))
      expect(frames.some((f) => f.includes('"equipment_update"') && f.includes(`"id":"${eq.id}"`) && f.includes(String(value)))).toBe(true)
    })

    test('Update Sensors posts simulated readings and the page shows them', async ({ page }) => {
      const eq = (await fleet(page)).find((e) => e.type === 'booster-pump') ?? (await fleet(page))[0]
      await page.goto('/digital-twin')
      await open(page, eq)
      await detail(page).getByRole('tab', { name: 'Sensors' }).click()

      const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/equipment/${eq.id}/sensor-data`))
      const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/equipment/${eq.id}/sensor-data`))
      await detail(page).getByRole('button', { name: 'Update Sensors' }).focus()
      await page.keyboard.press('Enter')
      const body = (await posted).postDataJSON() as { sensorData: Record<string, number | string> }
      expect((await answered).status()).toBe(200)
      await expect(detail(page).getByRole('button', { name: 'Update Sensors' })).toBeFocused()
      const keys = ['temperature', 'pressure', 'vibration', 'current', 'voltage', 'rpm', 'efficiency']
      expect(Object.keys(body.sensorData).sort()).toEqual([...keys, 'timestamp'].sort())
      expect(Number.isNaN(Date.parse(String(body.sensorData.timestamp)))).toBe(false)

      const units: Record<string, string> = { temperature: '°C', pressure: 'kPa', vibration: 'mm/s', current: 'A', voltage: 'V', rpm: 'rpm', efficiency: '%' }
      const readings = detail(page).getByTestId('detail-readings')
      for (const k of keys) {
        await expect(readings.locator(`dd[data-sensor="${k}"]`)).toHaveText(shown(body.sensorData[k] as number, units[k]))
      }
      // The card shows the same new values for its first four readings.
      for (const k of keys.slice(0, 4)) {
        await expect(card(page, eq.id).locator(`dd[data-sensor="${k}"]`)).toHaveText(shown(body.sensorData[k] as number, units[k]))
      }
      // And the data streams carry the new value with the old one as previous.
      const temp = shown(body.sensorData.temperature as number, '°C')
      await expect(detail(page).getByTestId('data-streams').getByRole('row').filter({ hasText: /Temperature/ }).getByRole('cell').first()).toHaveText(temp)

      // It survives a reload: the server stored it.
      await page.reload()
      await expect(card(page, eq.id).locator('dd[data-sensor="temperature"]')).toHaveText(temp)
    })

    const protocols = [
      { protocol: 'Modbus TCP', decoded: /Function code\s*3 \(Read Holding Registers\)/, result: /temperature/ },
      { protocol: 'OPC-UA', decoded: /ReadRequest/, result: /ns=1;s=Temperature/ },
      { protocol: 'MQTT', decoded: /PUBLISH journeyman\/equipment\/.+\/test/, result: /acknowledged/ },
      { protocol: 'EtherNet/IP', decoded: /Get_Attribute_Single/, result: /Assembly/ },
    ]
    for (const { protocol, decoded, result } of protocols) {
      test(`Test Protocol shows the real ${protocol} exchange`, async ({ page }) => {
        const eq = (await fleet(page)).find((e) => e.communicationProtocol === protocol)
        expect(eq, `a seeded twin speaks ${protocol}`).toBeTruthy()
        await page.goto('/digital-twin')
        await open(page, eq!)
        await detail(page).getByRole('tab', { name: 'Protocols' }).click()
        const answered = page.waitForResponse((r) => r.url().endsWith(`/equipment/${eq!.id}/simulate-communication`))
        await detail(page).getByRole('button', { name: 'Test Protocol' }).focus()
        await page.keyboard.press('Enter')
        const res = await answered
        expect(res.status()).toBe(200)
        // While it runs the button is unavailable but keeps focus, so a keyboard user stays in the panel.
        await expect(detail(page).getByRole('button', { name: 'Test Protocol' })).toBeFocused()
        const exchange = (await res.json()) as { request: { hex: string }; response: { hex: string } }
        expect(exchange.request.hex.length).toBeGreaterThan(0)
        expect(exchange.response.hex.length).toBeGreaterThan(0)

        for (const [title, frame] of [
          ['request', exchange.request],
          ['response', exchange.response],
        ] as const) {
          const view = detail(page).getByTestId(`frame-${title}`)
          const firstBytes = frame.hex.replace(/\s+/g, '').toLowerCase().slice(0, 16).match(/../g)!.join(' ')
          await expect(view.locator('pre')).toContainText(`0000  ${firstBytes}`)
        }
        await expect(detail(page).getByTestId('frame-request')).toContainText(decoded)
        await expect(detail(page).getByTestId('protocol-result')).toContainText(result)
      })
    }

    const badParameters = [
      { protocol: 'Modbus TCP', label: 'Register count', value: '500', message: /registerCount/ },
      { protocol: 'OPC-UA', label: 'Node id', value: 'plant.temperature', message: /is not an OPC UA node id/ },
    ]
    for (const bad of badParameters) {
      test(`a bad ${bad.protocol} parameter shows the server's 400 message`, async ({ page }) => {
        const eq = (await fleet(page)).find((e) => e.communicationProtocol === bad.protocol)!
        await page.goto('/digital-twin')
        await open(page, eq)
        await detail(page).getByRole('tab', { name: 'Protocols' }).click()
        await detail(page).getByLabel(bad.label).fill(bad.value)
        const answered = page.waitForResponse((r) => r.url().endsWith(`/equipment/${eq.id}/simulate-communication`))
        await detail(page).getByRole('button', { name: 'Test Protocol' }).click()
        const res = await answered
        expect(res.status()).toBe(400)
        const { message } = (await res.json()) as { message: string }
        expect(message).toMatch(bad.message)
        await expect(detail(page).getByRole('alert')).toHaveText(message)
        await expect(detail(page).getByTestId('frame-request')).toHaveCount(0)
      })
    }

    test('the instructor sets the parameters: a Modbus function code, an EtherNet/IP tag', async ({ page }) => {
      const list = await fleet(page)
      const modbus = list.find((e) => e.communicationProtocol === 'Modbus TCP')!
      const enip = list.find((e) => e.communicationProtocol === 'EtherNet/IP')!
      await page.goto('/digital-twin')

      await open(page, modbus)
      await detail(page).getByRole('tab', { name: 'Protocols' }).click()
      await detail(page).getByLabel('Function code').click()
      await page.getByRole('option', { name: '4 – Read Input Registers' }).click()
      // A new function code reads that code's whole block by default.
      await expect(detail(page).getByLabel('Start address')).toHaveValue('0')
      await expect(detail(page).getByLabel('Register count')).toHaveValue('5')
      const posted = page.waitForRequest((r) => r.url().endsWith(`/equipment/${modbus.id}/simulate-communication`))
      await detail(page).getByRole('button', { name: 'Test Protocol' }).click()
      expect((await posted).postDataJSON()).toEqual({ protocol: 'Modbus TCP', data: { functionCode: 4, startAddress: 0, registerCount: 5 } })
      await expect(detail(page).getByTestId('frame-request')).toContainText('Read Input Registers')
      // 0x04 is the function code byte right after the 7-byte MBAP header.
      await expect(detail(page).getByTestId('frame-request').locator('pre')).toContainText(/^0000 {2}(?:[0-9a-f]{2} ){7}04 00 00 00 05/)

      await detail(page).getByRole('button', { name: `Close ${modbus.name} details` }).click()
      await open(page, enip)
      await detail(page).getByRole('tab', { name: 'Protocols' }).click()
      await detail(page).getByLabel('Read', { exact: true }).click()
      await page.getByRole('option', { name: 'Tag' }).click()
      await detail(page).getByLabel('Tag', { exact: true }).fill('Pressure')
      const tagPosted = page.waitForRequest((r) => r.url().endsWith(`/equipment/${enip.id}/simulate-communication`))
      await detail(page).getByRole('button', { name: 'Test Protocol' }).click()
      expect((await tagPosted).postDataJSON()).toEqual({ protocol: 'EtherNet/IP', data: { tag: 'Pressure' } })
      await expect(detail(page).getByTestId('frame-request')).toContainText('Read Tag')
      await expect(detail(page).getByTestId('protocol-result')).toContainText('symbolic Pressure')
    })

    // At 375 px the streams and result tables scroll sideways: keyboard users must be able to reach them.
    for (const width of [1280, 375]) {
      test(`no serious accessibility violations with the panel open, at ${width} px`, async ({ page }) => {
        test.setTimeout(180_000) // four full axe runs and a protocol exchange on a shared 2-core machine
        await page.setViewportSize({ width, height: 900 })
        const [eq] = await fleet(page)
        await page.goto('/digital-twin')
        await open(page, eq)
        for (const tab of ['Overview', 'Sensors', 'Protocols', 'Maintenance']) {
          await detail(page).getByRole('tab', { name: tab }).click()
          if (tab === 'Protocols') {
            // Check the exchange view too: hex dumps, decoded fields, result table.
            await detail(page).getByRole('button', { name: 'Test Protocol' }).click()
            await expect(detail(page).getByTestId('frame-request')).toBeVisible()
          }
          const results = await new AxeBuilder({ page }).include('#main-content').analyze()
          const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
          expect(serious.map((v) => `${tab}: ${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([])
        }
      })
    }
  })

  test('signed out in another tab: Test Protocol shows the server\'s 401, then why the controls are disabled', async ({ page, twinServer }) => {
    // A guest who signs in here gets a session of its own: signing out ends
    // only that one, and signing in never renews the worker's shared session.
    const signIn = await page.request.post('/api/account/sign-in', { data: { email: twinServer.instructor.email, password: twinServer.instructor.password } })
    expect(signIn.status(), await signIn.text()).toBe(200)
    const eq = (await fleet(page)).find((e) => e.communicationProtocol === 'Modbus TCP')!
    await page.goto('/digital-twin')
    await open(page, eq)
    await detail(page).getByRole('tab', { name: 'Protocols' }).click()
    const testProtocol = detail(page).getByRole('button', { name: 'Test Protocol' })
    await expect(testProtocol).toBeEnabled()
    await expect(detail(page).getByTestId('drive-notice')).toHaveCount(0)

    expect((await page.request.post('/api/account/sign-out')).status()).toBe(204)
    const answered = page.waitForResponse((r) => r.url().endsWith(`/equipment/${eq.id}/simulate-communication`))
    await testProtocol.click()
    const res = await answered
    expect(res.status()).toBe(401)
    const { message } = (await res.json()) as { message: string }
    await expect(detail(page).getByRole('alert')).toHaveText(message)
    await expect(testProtocol).toBeDisabled()
    await expect(detail(page).getByTestId('drive-notice').first()).toHaveText('Sign in as an instructor or admin to drive equipment.')
  })
})
