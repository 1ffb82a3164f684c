import AxeBuilder from '@axe-core/playwright'
import { expect, test as base, type Page } from '../support/test'
import { startFreshServer, type FreshServer } from '../support/fresh-server'
import { signedInInstructor, signedInLearner, type StorageState } from '../support/staff'
import { EQUIPMENT, addTwin, twinDefinition } from '../support/twins'

// Twins as data (/digital-twin/manage) on the real server: an instructor
// adds a Modbus TCP twin that reads the demo device of seed twin pnl-lp2a,
// tests the connection before saving, saves it, finds it on the monitor,
// renames it and retires it; the shared seed twins are not theirs to
// change; a learner gets no manage page. The server is the worker's own:
// the twins made here must not show in other specs.
interface ManageServer extends FreshServer {
  as: { instructor: StorageState; learner: StorageState }
}
const test = base.extend<object, { manageServer: ManageServer }>({
  manageServer: [
    async ({ playwright }, use) => {
      const server = await startFreshServer()
      try {
        const { storageState } = await signedInInstructor(playwright, server)
        const learner = await signedInLearner(playwright, server)
        await use({ ...server, as: { instructor: storageState, learner } })
      } finally {
        await server.stop()
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ manageServer }, use) => use(manageServer.base),
})


interface Twin {
  id: string
  name: string
  connectionParameters: { host?: string; port?: number }
  sensorData: Record<string, { value: number; unit: string }>
  connection: { address: string; points: { register?: number }[] } | null
}

async function fleet(page: Page): Promise<Twin[]> {
  const res = await page.request.get(EQUIPMENT)
  expect(res.ok()).toBe(true)
  return (await res.json()) as Twin[]
}

/** No serious or critical axe violation in the page's main content. */
async function expectAccessible(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).include('#main-content').analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${where}: ${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([])
}

/** Whether the page is wider than the window (a layout that does not fit 375 px scrolls sideways). */
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)

test.describe('manage equipment', () => {
  test('an instructor adds a Modbus TCP twin on a device, tests it, saves, renames and retires it', async ({ browser, manageServer }) => {
    test.setTimeout(120_000)
    const context = await browser.newContext({ baseURL: manageServer.base, storageState: manageServer.as.instructor })
    await context.addInitScript(() => localStorage.setItem('journeyman-tour-completed', 'true'))
    const page = await context.newPage()
    await page.setViewportSize({ width: 1280, height: 900 })

    // The demo device that serves pnl-lp2a, where a client on this machine reaches it.
    const panel = (await fleet(page)).find((e) => e.id === 'pnl-lp2a')!
    const { host, port } = panel.connectionParameters
    expect(host, 'pnl-lp2a has a running demo device').toBeTruthy()
    const address = `${host}:${port}`
    const name = `Panel LP-2A mirror ${Date.now().toString(36)}`

    // The monitor leads staff to the manage page.
    await page.goto('/digital-twin')
    await page.getByRole('link', { name: 'Manage equipment' }).click()
    await expect(page).toHaveURL(/\/digital-twin\/manage$/)
    await expect(page).toHaveTitle(/Manage Equipment/)
    const list = page.getByRole('list', { name: 'Equipment' })
    // Only the organisation's own twins are listed (another test of this worker may have added one): the
    // seed twins are shared, on the monitor, and no one's to change.
    const ownHeading = page.getByRole('heading', { level: 2, name: /^Your equipment \(\d+\)$/ })
    await expect(ownHeading).toBeVisible()
    const ownBefore = await ownHeading.textContent()
    await expect(list.getByRole('heading', { name: panel.name })).toHaveCount(0)
    await expect(page.getByText(/^The \d+ shared demo twins, which every organisation trains on/)).toBeVisible()
    await expectAccessible(page, 'list at 1280 px')
    await page.screenshot({ path: '/tmp/twin-manage-list-1280.png', fullPage: true })

    await page.getByRole('link', { name: 'Add equipment' }).click()
    await expect(page.getByRole('heading', { level: 2, name: 'Add equipment' })).toBeFocused()
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByLabel('Type', { exact: true }).fill('panelboard')
    await page.getByLabel('Manufacturer', { exact: true }).fill('Square D')
    await page.getByLabel('Model', { exact: true }).fill('NF 480Y/277 V')
    await page.getByLabel('Serial number', { exact: true }).fill('SQD-MIRROR-1')
    await page.getByRole('checkbox', { name: 'Electrical' }).check()
    await page.getByRole('button', { name: 'Add task' }).click()
    await page.getByRole('textbox', { name: 'Task 1' }).fill('Infrared scan of breakers')
    await page.getByLabel('Frequency').selectOption('annual')
    await expect(page.getByLabel('Communication protocol')).toHaveValue('Modbus TCP')
    // By keyboard: the switch takes Space.
    await page.getByRole('switch', { name: 'Connect to a real device' }).focus()
    await page.keyboard.press('Space')
    await expect(page.getByRole('switch', { name: 'Connect to a real device' })).toBeChecked()

    // A wrong address is named at its field before anything is sent.
    await page.getByLabel('Address').fill(host!)
    await page.getByLabel('Address').blur()
    await expect(page.getByLabel('Address')).toHaveAccessibleDescription(/Address must be host:port: missing port in address\./)
    await page.getByLabel('Address').fill(address)
    await expect(page.getByLabel('Unit id')).toHaveValue('1')
    // Temperature is mapped by default: holding registers 0–1, float32, high word first (internal/fieldbus/modbus.go).
    const row = page.getByTestId('point-row')
    await expect(row).toHaveCount(1)
    await expect(row.getByLabel('Sensor')).toHaveValue('temperature')
    await expect(row.getByLabel('Register')).toHaveValue('0')
    await expect(row.getByLabel('Table')).toHaveValue('holding')
    await expect(row.getByLabel('Data type')).toHaveValue('float32')
    await expect(row.getByLabel('Word order')).toHaveValue('high-first')
    await expectAccessible(page, 'form at 1280 px')

    // Test connection reads the point from the device, before anything is saved.
    await page.getByRole('button', { name: 'Test connection' }).click()
    await expect(page.getByTestId('connection-test-summary')).toContainText('Connected: read 1 of 1 point')
    const reading = page.getByTestId('connection-test-point')
    await expect(reading).toHaveCount(1)
    await expect(reading.getByRole('rowheader')).toHaveText('Temperature (°C)')
    await expect(reading.getByRole('cell').nth(1)).toHaveText(/^-?[\d,.]+ °C$/)
    await expect(reading.getByRole('cell').nth(2)).toHaveText('None')
    expect((await fleet(page)).some((e) => e.name === name), 'a test saves nothing').toBe(false)
    await page.screenshot({ path: '/tmp/twin-manage-form-1280.png', fullPage: true })
    await page.getByRole('group', { name: 'Connection' }).screenshot({ path: '/tmp/twin-manage-connection-1280.png' })

    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page).toHaveURL(/\/digital-twin\/manage$/)
    const item = list.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) })
    await expect(item).toContainText(`Real device at ${address}`)
    await expect(item).toContainText('Modbus TCP')
    const saved = (await fleet(page)).find((e) => e.name === name)!
    expect(saved.connection).toMatchObject({ address, unitId: 1, points: [{ sensor: 'temperature', registerType: 'holding', dataType: 'float32', wordOrder: 'high-first', scale: 1 }] })
    // Register 0 is left out of the answer (Go's omitempty): absent reads as 0.
    expect(saved.connection!.points[0].register ?? 0).toBe(0)

    // It is on the monitor with the other twins.
    await page.goto('/digital-twin')
    await expect(page.getByRole('button', { name })).toBeVisible()

    // Rename it.
    await page.goto('/digital-twin/manage')
    await item.getByRole('link', { name: `Edit ${name}` }).click()
    await expect(page.getByRole('heading', { level: 2, name: `Edit ${name}` })).toBeVisible()
    await expect(page.getByLabel('Address')).toHaveValue(address)
    const renamed = `${name} (east)`
    await page.getByLabel('Name', { exact: true }).fill(renamed)
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page).toHaveURL(/\/digital-twin\/manage$/)
    await expect(list.getByRole('heading', { name: renamed })).toBeVisible()

    // Retire it, after saying so.
    await list.getByRole('button', { name: `Retire ${renamed}` }).click()
    const dialog = page.getByRole('alertdialog', { name: `Retire ${renamed}?` })
    await expect(dialog.getByRole('button', { name: 'Keep it' })).toBeFocused()
    // Kept: focus goes back to the button that asked.
    await page.keyboard.press('Escape')
    await expect(list.getByRole('button', { name: `Retire ${renamed}` })).toBeFocused()
    await page.keyboard.press('Enter')
    await dialog.getByRole('button', { name: 'Retire', exact: true }).click()
    await expect(dialog).toBeHidden()
    await expect(list.getByRole('heading', { name: renamed })).toHaveCount(0)
    // Retired: the button that asked is gone, so focus lands on the list's heading rather than the page's body.
    await expect(page.getByRole('heading', { level: 2, name: ownBefore! })).toBeFocused()
    expect((await fleet(page)).some((e) => e.id === saved.id)).toBe(false)

    // A shared seed twin opens no form, and the server would refuse a change.
    await page.goto('/digital-twin/manage?edit=pnl-lp2a')
    await expect(page.getByText(`${panel.name} is shared demo equipment every organisation trains on`)).toBeVisible()
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0)
    const refused = await page.request.delete(`${EQUIPMENT}/pnl-lp2a`)
    expect(refused.status()).toBe(403)
    expect((await fleet(page)).some((e) => e.id === 'pnl-lp2a')).toBe(true)
    await context.close()
  })

  test('the list and the form fit 375 px and pass axe', async ({ browser, manageServer }) => {
    const context = await browser.newContext({ baseURL: manageServer.base, storageState: manageServer.as.instructor })
    await context.addInitScript(() => localStorage.setItem('journeyman-tour-completed', 'true'))
    const page = await context.newPage()
    await page.setViewportSize({ width: 375, height: 800 })
    // A twin of the instructor's organisation to edit.
    const name = `Pump P-9 ${Date.now().toString(36)}`
    await addTwin(page.request, twinDefinition(name, 'Modbus TCP'))
    await page.goto('/digital-twin/manage')
    await expect(page.getByRole('list', { name: 'Equipment' }).getByRole('listitem').first()).toBeVisible()
    expect(await overflows(page)).toBe(false)
    await expectAccessible(page, 'list at 375 px')
    await page.screenshot({ path: '/tmp/twin-manage-list-375.png', fullPage: true })

    await page.getByRole('link', { name: `Edit ${name}` }).click()
    await page.getByRole('switch', { name: 'Connect to a real device' }).click()
    await page.getByRole('button', { name: 'Add point' }).click()
    await expect(page.getByTestId('point-row')).toHaveCount(2)
    expect(await overflows(page)).toBe(false)
    await expectAccessible(page, 'form at 375 px')
    await page.screenshot({ path: '/tmp/twin-manage-form-375.png', fullPage: true })
    await page.getByRole('group', { name: 'Point map' }).screenshot({ path: '/tmp/twin-manage-points-375.png' })
    await context.close()
  })

  test('a learner gets no manage page, and no link to it', async ({ browser, manageServer }) => {
    const context = await browser.newContext({ baseURL: manageServer.base, storageState: manageServer.as.learner })
    await context.addInitScript(() => localStorage.setItem('journeyman-tour-completed', 'true'))
    const page = await context.newPage()
    await page.goto('/digital-twin/manage')
    await expect(page.getByText('Only instructors and admins of an organisation manage equipment.')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Add equipment' })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0)
    await page.goto('/digital-twin')
    await expect(page.getByRole('heading', { name: /^Equipment \(\d+\)$/ })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Manage equipment' })).toHaveCount(0)
    // And the server would refuse the learner too.
    expect((await page.request.post(EQUIPMENT, { data: {} })).status()).toBe(403)
    await context.close()
  })
})
