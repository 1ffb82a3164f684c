import { expect as baseExpect, test, type APIRequestContext } from '../support/test'
import { skipTour } from '../support/accounts'
import { startFreshServer, type FreshServer } from '../support/fresh-server'
import { organisationWithLearner, type OrgPerson } from '../support/staff'

// WebGL is software-rendered and the player holds each step for its minimum time.
const expect = baseExpect.configure({ timeout: 20_000 })

const MODULE = 'electrical-lockout-tagout'
const ADL = 'http://adlnet.gov/expapi/verbs/'
const XAPI = { 'X-Experience-API-Version': '2.0.0' }

// A learner trains in the browser; the session's learning record is then read
// back from the built-in LRS by the learner, their instructor and a tool
// holding the organisation's xAPI credential. One organisation, in order.
test.describe.configure({ mode: 'serial', timeout: 180_000 })

let server: FreshServer
let org: { admin: OrgPerson; instructor: OrgPerson; learner: OrgPerson }

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000)
  server = await startFreshServer()
  org = await organisationWithLearner(playwright, server, 'Northgate Electrical Apprentices')
})
test.afterAll(async () => {
  for (const p of [org?.admin, org?.instructor, org?.learner]) await p?.api.dispose()
  await server?.stop()
})

interface Statement {
  actor: { account: { homePage: string; name: string } }
  verb: { id: string }
  object: { id: string }
  result?: { success?: boolean; score?: { scaled: number; raw: number } }
  context: { registration: string }
}

async function statementsOf(api: APIRequestContext, registration: string, headers: Record<string, string> = {}) {
  const res = await api.get(`/xapi/statements?ascending=true&registration=${registration}`, { headers: { ...XAPI, ...headers } })
  expect(res.status(), await res.text()).toBe(200)
  expect(res.headers()['x-experience-api-version']).toBe('2.0.0')
  return ((await res.json()) as { statements: Statement[] }).statements
}

test('a session trained in the browser is read back through /xapi/statements', async ({ browser, playwright }) => {
  const context = await browser.newContext({ storageState: org.learner.storageState, viewport: { width: 1280, height: 900 }, baseURL: server.base })
  const page = await context.newPage()
  await skipTour(page)
  await page.goto(`/xr-training?module=${MODULE}`)
  await expect(page.getByRole('heading', { level: 1, name: 'XR Training Center' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'AR Mode' })).toBeEnabled() // the 3D view is ready

  const started = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/xr-sessions'))
  await page.getByRole('button', { name: 'Desktop Mode' }).click()
  const session = (await (await started).json()) as { id: string }
  // Every step from the keyboard, each once the player allows it.
  for (let n = 1; n <= 8; n++) {
    const button = page.getByRole('button', { name: `Complete step ${n}` })
    await expect(button).toBeEnabled()
    await button.press('Enter')
  }
  await expect(page.getByText('All steps done. Select End Session to record your result.')).toBeVisible()
  const ended = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.request().postDataJSON()?.endedAt !== undefined)
  await page.getByRole('button', { name: 'End Session' }).click()
  const record = (await (await ended).json()) as { safetyScore: number; verified: boolean; interactionData: { completionStatus: string } }
  expect(record.verified).toBe(true)
  expect(record.interactionData.completionStatus).toBe('passed')

  // The learner reads her own record with her sign-in.
  const mine = await statementsOf(page.request, session.id)
  expect(mine.map((s) => s.verb.id)).toEqual([
    `${ADL}launched`,
    `${ADL}initialized`,
    ...Array(8).fill(`${ADL}interacted`),
    `${ADL}completed`,
    `${ADL}passed`,
    `${ADL}terminated`,
  ])
  expect(mine.every((s) => s.actor.account.name === org.learner.id && s.context.registration === session.id)).toBe(true)
  const passed = mine[11]
  expect(passed.object.id).toMatch(new RegExp(`/xapi/activities/modules/${MODULE}$`))
  expect(passed.result?.score).toEqual({ scaled: record.safetyScore / 100, raw: record.safetyScore, min: 0, max: 100 })

  // So does her instructor.
  expect(await statementsOf(org.instructor.api, session.id)).toHaveLength(mine.length)

  // And a tool holding a read credential the admin made for the organisation.
  const created = await org.admin.api.post('/api/organisation/xapi/credentials', { data: { name: 'Reporting', canRead: true, canWrite: false } })
  expect(created.status(), await created.text()).toBe(201)
  const { credential, secret } = (await created.json()) as { credential: { key: string }; secret: string }
  const tool = await playwright.request.newContext({ baseURL: server.base })
  const basic = `Basic ${Buffer.from(`${credential.key}:${secret}`).toString('base64')}`
  expect(await statementsOf(tool, session.id, { Authorization: basic })).toEqual(mine)
  // Without a credential or a sign-in the LRS answers 401.
  const anonymous = await tool.get('/xapi/statements', { headers: XAPI })
  expect(anonymous.status()).toBe(401)
  await tool.dispose()
  await context.close()
})
