import AxeBuilder from '@axe-core/playwright'
import { expect as baseExpect, test, type Browser, type Page } from '../support/test'
import { skipTour } from '../support/accounts'
import { startFreshServer, type FreshServer } from '../support/fresh-server'
import { organisationWithLearner, type OrgPerson } from '../support/staff'

// Two people on one server: a learner trains, an instructor watches on
// /portal/live. Live messages cross two browsers and the 2-core machine is
// shared: allow slow deliveries.
const expect = baseExpect.configure({ timeout: 15_000 })

// The lockout/tagout module trains in the scene of the same id (internal/training/scenes.go).
const MODULE = 'electrical-lockout-tagout'

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).include('#main-content').analyze()
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

// Sign-ups are limited per address, and a safety alert reaches every client
// of the organisation: this file runs on a server of its own, in order.
test.describe.configure({ mode: 'serial', timeout: 180_000 })

let server: FreshServer
let org: { admin: OrgPerson; instructor: OrgPerson; learner: OrgPerson }

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000)
  server = await startFreshServer()
  org = await organisationWithLearner(playwright, server, 'Harbour Electrical College')
})
test.afterAll(async () => {
  for (const p of [org?.admin, org?.instructor, org?.learner]) await p?.api.dispose()
  await server?.stop()
})

async function pageAs(browser: Browser, person: OrgPerson, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ storageState: person.storageState, viewport, baseURL: server.base })
  const page = await context.newPage()
  await skipTour(page)
  return page
}

const sessionRow = (page: Page) => page.getByRole('table', { name: /^Running sessions/ }).locator('tbody tr')

test('an instructor watches a learner train, sends a message, acknowledges their alert and stops the session', async ({ browser }) => {
  const moduleTitle = ((await (await org.learner.api.get(`/api/training-modules/${MODULE}/xr-content`)).json()) as { moduleTitle: string }).moduleTitle
  const instructor = await pageAs(browser, org.instructor)
  const learner = await pageAs(browser, org.learner)

  // The instructor finds the live view in the account menu.
  await instructor.goto('/portal')
  await instructor.getByRole('navigation', { name: 'Main' }).getByTestId('account-menu-trigger').click()
  await instructor.getByRole('menuitem', { name: 'Live view' }).click()
  await expect(instructor).toHaveURL(/\/portal\/live$/)
  await expect(instructor.getByRole('heading', { level: 1, name: 'Live view' })).toBeVisible()
  await expect(instructor.getByTestId('live-connection')).toHaveText('Live: updates arrive as they happen.')
  await expect(instructor.getByTestId('no-live-sessions')).toBeVisible()

  // The learner starts the module on the desktop.
  await learner.goto(`/xr-training?module=${MODULE}`)
  await expect(learner.getByTestId('realtime-badge')).toHaveText('Realtime Connected')
  await learner.getByRole('button', { name: 'Desktop Mode' }).click()
  await expect(learner.getByRole('button', { name: 'End Session' })).toBeVisible()

  // Their session appears at once, with who, what and where they are.
  await expect(sessionRow(instructor)).toHaveCount(1)
  const row = sessionRow(instructor).first()
  await expect(row.getByRole('rowheader')).toContainText('Lena Learner')
  await expect(row).toContainText(moduleTitle)
  await expect(row).toContainText('Desktop')
  await expect(row.getByTestId('live-step')).toHaveText(/^Step 1 of 8: /)
  await expect(row.getByTestId('live-checks')).toHaveText(/to come$/)

  // A step done moves it on, without a reload.
  await expect(learner.getByRole('button', { name: 'Complete step 1' })).toBeEnabled()
  await learner.getByRole('button', { name: 'Complete step 1' }).click()
  await expect(row.getByTestId('live-step')).toHaveText(/^Step 2 of 8: /)
  await expect(row.getByTestId('live-checks')).toHaveText(/^1 passed, /)
  await expect(row).toContainText('1 of 8 steps done')

  // Observe it by keyboard, and send the learner a message.
  await row.getByRole('button', { name: /^Observe Lena Learner in / }).focus()
  await instructor.keyboard.press('Enter')
  const panel = instructor.getByTestId('observe-panel')
  await expect(panel.getByRole('heading', { level: 2, name: 'Observing Lena Learner' })).toBeFocused()
  await expect(panel.getByTestId('session-observer')).toContainText('Joined as an observer')
  await panel.getByLabel('Message to Lena Learner').fill('Check the disconnect is locked before you test.')
  await panel.getByRole('button', { name: 'Send message' }).focus()
  await instructor.keyboard.press('Enter')
  await expect(panel.getByRole('status').filter({ hasText: 'Message sent to Lena Learner.' })).toBeVisible()
  // Sent by keyboard, the keyboard stays on Send (a disabled button dropped it to the page).
  await expect(panel.getByRole('button', { name: 'Send message' })).toBeFocused()

  const message = learner.getByTestId('instructor-message')
  await expect(message).toContainText('Message from Ivan Instructor')
  await expect(message).toContainText('Check the disconnect is locked before you test.')
  await learner.getByRole('button', { name: 'Dismiss the message from Ivan Instructor' }).click()
  await expect(message).toHaveCount(0)

  // The learner raises a safety alert; it reaches the instructor at once, with who raised it.
  await learner.getByRole('button', { name: 'Request Help' }).click()
  await learner.getByRole('alertdialog').getByRole('button', { name: 'Acknowledge' }).click()
  const alert = instructor.getByRole('list', { name: 'Safety alerts, newest first' }).getByRole('listitem').first()
  await expect(alert).toContainText('Raised by Lena Learner')
  await expect(alert).toContainText('Need assistance')
  await expect(alert).toContainText('Not acknowledged')
  await expect(instructor.getByTestId('live-region-assertive')).toHaveText('Help alert from Lena Learner: Need assistance')
  // It was raised in the running session, which it offers to observe.
  await expect(alert.getByRole('button', { name: "Observe Lena Learner's session" })).toBeVisible()

  // Both widths pass axe with a session, an observed session and an alert on the page.
  expect(await seriousViolations(instructor), '/portal/live at 1280 px').toEqual([])
  await instructor.evaluate(() => window.scrollTo(0, 0))
  await instructor.screenshot({ path: '/tmp/live-1280.png', fullPage: true })
  await instructor.setViewportSize({ width: 375, height: 800 })
  await expect(alert).toBeVisible()
  expect(await instructor.evaluate(() => document.documentElement.scrollWidth), 'no sideways scrolling of the page at 375 px').toBeLessThanOrEqual(375)
  // The Observe button sits in the learner's cell, on screen without scrolling the table sideways.
  const observeBox = (await row.getByRole('button', { name: /^Observing Lena Learner in / }).boundingBox())!
  expect(observeBox.x + observeBox.width).toBeLessThanOrEqual(375)
  // On a phone the row is a card: the current step and the checks are on screen too, under their names.
  for (const part of [row.getByTestId('live-step'), row.getByTestId('live-checks')]) {
    const box = (await part.boundingBox())!
    expect(box.x + box.width).toBeLessThanOrEqual(375)
  }
  await expect(row.getByText('Current step', { exact: true })).toBeVisible()
  expect(await seriousViolations(instructor), '/portal/live at 375 px').toEqual([])
  // The alerts come last on a phone; a line at the top leads to them.
  await expect(instructor.getByText('1 safety alert is not acknowledged.')).toBeVisible()
  await expect(instructor.getByRole('link', { name: 'Go to the alerts' })).toHaveAttribute('href', '#live-alerts-heading')
  await instructor.evaluate(() => window.scrollTo(0, 0))
  await instructor.screenshot({ path: '/tmp/live-375.png', fullPage: true })
  await instructor.setViewportSize({ width: 1280, height: 900 })

  // The instructor acknowledges it: who and when is stored, and shown after a reload.
  await alert.getByRole('button', { name: 'Acknowledge the alert from Lena Learner' }).click()
  await expect(alert.getByTestId('alert-acknowledgement')).toHaveText(/^Acknowledged by Ivan Instructor at /)
  await expect(alert.getByTestId('alert-acknowledgement')).toBeFocused()
  await expect(alert).not.toContainText('Not acknowledged')
  // The learner who raised it is told, and their page's list says who has it in hand.
  // (Exact: the toast's screen-reader announcement holds both texts run together for a moment.)
  await expect(learner.getByText('Your safety alert was acknowledged', { exact: true })).toBeVisible()
  await expect(learner.getByText('Ivan Instructor has it in hand.', { exact: true })).toBeVisible()
  await expect(learner.getByTestId('safety-alerts').getByRole('listitem').first()).toContainText(/Acknowledged by Ivan Instructor at /)
  await instructor.reload()
  await expect(instructor.getByTestId('live-connection')).toHaveText('Live: updates arrive as they happen.')
  const reloaded = instructor.getByRole('list', { name: 'Safety alerts, newest first' }).getByRole('listitem').first()
  await expect(reloaded).toContainText('Need assistance')
  await expect(reloaded.getByTestId('alert-acknowledgement')).toHaveText(/^Acknowledged by Ivan Instructor at /)

  // The instructor stops the session, with a reason, after confirming.
  await sessionRow(instructor).first().getByRole('button', { name: /^Observe Lena Learner in / }).click()
  await panel.getByRole('button', { name: 'Stop session' }).click()
  const confirm = instructor.getByRole('dialog', { name: "Stop Lena Learner's session?" })
  await expect(confirm).toBeVisible()
  await confirm.getByLabel('Reason (optional)').fill('Test before touch: start again from the top.')
  await confirm.getByRole('button', { name: 'Stop session' }).click()
  await expect(confirm).toHaveCount(0)
  // "Stop sent" shows only until the learner's player has ended the session, which on a quick machine
  // is before it could be seen: what lasts is the ended session, checked below.

  // The learner's player ends the session as End Session does, and says who stopped it and why.
  const stopped = learner.getByTestId('instructor-stop')
  await expect(stopped).toContainText('Ivan Instructor stopped this session')
  await expect(stopped).toContainText('Reason: Test before touch: start again from the top.')
  await expect(learner.getByRole('button', { name: 'End Session' })).toHaveCount(0)
  await expect(learner.getByRole('button', { name: 'Desktop Mode' })).toBeEnabled()
  await expect(learner.getByRole('status').filter({ hasText: /^Last session: not passed/ })).toBeVisible()

  // The session has ended: the running list drops it, and the panel says so.
  await expect(sessionRow(instructor)).toHaveCount(0)
  await expect(instructor.getByTestId('no-live-sessions')).toBeVisible()
  await expect(panel.getByTestId('observed-ended')).toHaveText(/^This session has ended: failed\./)
  const ended = await org.learner.api.get(`/api/users/${org.learner.id}/xr-sessions`)
  expect(((await ended.json()) as { completionStatus: string }[])[0].completionStatus).toBe('completed')

  await instructor.context().close()
  await learner.context().close()
})

test('a learner opening the live view is told it is for instructors and admins', async ({ browser }) => {
  const learner = await pageAs(browser, org.learner, { width: 375, height: 800 })
  await learner.goto('/portal/live')
  await expect(learner.getByText(/Only instructors and admins use the portal; you are a learner at Harbour Electrical College\./)).toBeVisible()
  await expect(learner.getByRole('heading', { level: 1, name: 'Live view' })).toHaveCount(0)
  await learner.context().close()
})
