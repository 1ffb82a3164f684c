import { expect, test, type APIRequestContext, type Page } from '../support/test'
import { chromiumArgs, chromiumPath } from '../support/chromium'
import { startFreshServer, type FreshServer } from '../support/fresh-server'
import { organisationWithLearner, type OrgPerson } from '../support/staff'

/*
 * Voice-training runs and AR welds are the server's records: a finished run
 * is still listed after a reload, and a signed-in learner's results are xAPI
 * statements their instructor reads from the built-in LRS, scored by the
 * server, not by the page.
 */

test.describe.configure({ mode: 'serial', timeout: 90_000 })
// Chromium's fake camera for the welding simulator, granted without a prompt.
test.use({
  launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'] },
  viewport: { width: 1280, height: 900 },
})

let server: FreshServer
let learner: OrgPerson
let instructor: OrgPerson

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000)
  server = await startFreshServer()
  ;({ learner, instructor } = await organisationWithLearner(playwright, server, 'Results Training Co'))
})

test.afterAll(async () => {
  await server?.stop()
})

interface Statement {
  verb: { id: string }
  object: { id: string }
  result?: { success?: boolean; score?: { raw: number; scaled: number }; extensions?: Record<string, unknown> }
  context?: { registration?: string }
}

async function statementsOf(api: APIRequestContext, registration: string): Promise<Statement[]> {
  const res = await api.get(`${server.base}/xapi/statements?ascending=true&registration=${registration}`, {
    headers: { 'X-Experience-API-Version': '2.0.0' },
  })
  expect(res.status(), await res.text()).toBe(200)
  return ((await res.json()) as { statements: Statement[] }).statements
}

/** The speech API is left out, so the page is driven by typed commands. */
async function withoutSpeech(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>
    delete w.SpeechRecognition
    delete w.webkitSpeechRecognition
  })
}

async function typeCommand(page: Page, command: string) {
  const box = page.getByLabel('Type a command')
  await box.fill(command)
  await box.press('Enter')
}

const LOTO = 'Lockout/Tagout of Machinery'

test('a guest’s finished voice run is stored and listed after a reload', async ({ page }) => {
  await withoutSpeech(page)
  await page.goto(`${server.base}/voice-xr`)
  await page.getByRole('button', { name: `Activate ${LOTO}` }).click()
  await typeCommand(page, 'start lockout')
  await expect(page.getByTestId('active-module')).toContainText('Step 1 of 8')
  await typeCommand(page, 'next step')
  await expect(page.getByTestId('active-module')).toContainText('Step 2 of 8')
  await typeCommand(page, 'lockout complete')
  await expect(page.getByText('Run saved.')).toBeVisible()
  const runs = page.getByTestId('voice-runs').getByRole('listitem')
  await expect(runs.first()).toHaveText(`${LOTO}: 2 of 8 steps, completed, steps skipped`)

  await page.reload()
  await expect(page.getByTestId('voice-runs').getByRole('listitem').first()).toHaveText(`${LOTO}: 2 of 8 steps, completed, steps skipped`)
})

test('a signed-in learner’s voice run is a statement their instructor reads', async ({ browser }) => {
  const context = await browser.newContext({ storageState: learner.storageState })
  const page = await context.newPage()
  await withoutSpeech(page)
  await page.goto(`${server.base}/voice-xr`)
  await page.getByRole('button', { name: `Activate ${LOTO}` }).click()
  await typeCommand(page, 'start lockout')
  for (let i = 2; i <= 8; i++) {
    await typeCommand(page, 'next step')
    await expect(page.getByTestId('active-module')).toContainText(`Step ${i} of 8`)
  }
  await typeCommand(page, 'lockout complete')
  await expect(page.getByText('Run saved.')).toBeVisible()
  await page.reload()
  await expect(page.getByTestId('voice-runs').getByRole('listitem').first()).toHaveText(`${LOTO}: 8 of 8 steps, completed`)

  const [run] = (await (await learner.api.get(`${server.base}/api/voice-training/runs`)).json()).runs as { id: string }[]
  const read = await statementsOf(instructor.api, run.id)
  expect(read).toHaveLength(1)
  expect(read[0].verb.id).toBe('http://adlnet.gov/expapi/verbs/completed')
  expect(read[0].object.id).toBe(`${server.base}/xapi/activities/voice-modules/electrical-lockout-tagout`)
  expect(read[0].result).toMatchObject({ success: true, score: { raw: 8, scaled: 1 } })
  await context.close()
})

test('a signed-in learner’s weld is stored, and its statement carries the quality the server works out', async ({ browser }) => {
  const context = await browser.newContext({ storageState: learner.storageState })
  const page = await context.newPage()
  // No random drift: every metric holds its band centre, which the page scores 75.0.
  await page.addInitScript(() => {
    Math.random = () => 0.5
  })
  await page.clock.install()
  await page.goto(`${server.base}/welding-ar-demo`)
  await expect(page.getByRole('checkbox').first()).toBeVisible()
  await page.clock.pauseAt(Date.now() + 1_000)
  await page.getByRole('button', { name: 'Start Welding' }).click()
  await expect(page.getByTestId('weld-status')).toHaveText('Welding')
  await page.clock.runFor(5_000)
  await page.getByRole('button', { name: 'End Weld' }).click()
  await expect(page.getByTestId('quality-score')).toHaveText('75.0')
  await page.clock.resume()
  await expect(page.getByText(/Saved to your session history/)).toBeVisible()

  await page.goto(`${server.base}/xr-training`)
  await page.getByRole('tab', { name: 'Session History' }).click()
  await expect(page.getByTestId('session-history').getByRole('listitem').first()).toContainText('AR')

  const sessions = (await (await learner.api.get(`${server.base}/api/users/${learner.id}/xr-sessions`)).json()) as { id: string; sessionType: string }[]
  const weld = sessions.find((s) => s.sessionType === 'ar')
  expect(weld).toBeTruthy()
  const read = await statementsOf(instructor.api, weld!.id)
  const welded = read.find((s) => s.object.id.endsWith('/steps/action-weld'))
  expect(welded?.result?.score).toEqual({ raw: 75, scaled: 0.75, min: 0, max: 100 })
  expect(welded?.result?.extensions?.[`${server.base}/xapi/extensions/weld`]).toEqual({ technique: 'GMAW', material: 'carbon steel', position: '1G' })
  await context.close()
})
