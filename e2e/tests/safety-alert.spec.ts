import { expect as baseExpect, test as base, type Page } from '../support/test'
import { startFreshServer, type FreshServer } from '../support/fresh-server'

const expect = baseExpect.configure({ timeout: 15_000 })

// A safety alert reaches every client on the server and interrupts each of
// them: on the shared server it would block other tests' pages. This file
// runs on a server of its own.
const test = base.extend<object, { alertServer: FreshServer }>({
  alertServer: [
    async ({}, use) => {
      const server = await startFreshServer()
      await use(server)
      await server.stop()
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ alertServer }, use) => use(alertServer.base),
})

async function openCenter(page: Page) {
  await page.goto('/xr-training')
  await expect(page.getByRole('heading', { level: 1, name: 'XR Training Center' })).toBeVisible()
  await expect(page.getByTestId('realtime-badge')).toHaveText('Realtime Connected')
}

test.describe('a received safety alert', () => {
  test.use({ viewport: { width: 1280, height: 900 } })
  test.describe.configure({ mode: 'serial', timeout: 90_000 })

  test('interrupts another learner with an alert dialog that holds focus, queues the next, and is dismissed by keyboard', async ({ browser, baseURL }) => {
    const context = () => browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL })
    const [senderContext, receiverContext] = [await context(), await context()]
    const sender = await senderContext.newPage()
    const receiver = await receiverContext.newPage()
    await openCenter(sender)
    await openCenter(receiver)
    // The receiver is busy with something else on the page.
    const busyWith = receiver.getByRole('button', { name: /Lockout\/Tagout/ }).first()
    await busyWith.focus()

    // Two alerts in quick succession: neither is lost.
    await sender.getByRole('button', { name: 'Request Help' }).click()
    await sender.getByRole('alertdialog').getByRole('button', { name: 'Acknowledge' }).click()
    await sender.getByRole('button', { name: 'Equipment Issue' }).click()

    const first = receiver.getByRole('alertdialog', { name: 'Safety Alert: Need assistance' })
    await expect(first).toBeVisible()
    await expect(first.getByRole('button', { name: 'Acknowledge' })).toBeFocused()
    await expect(first).toContainText('1 more safety alert is waiting.')
    // It does not fade like a toast.
    await receiver.waitForTimeout(6000)
    await expect(first).toBeVisible()
    // The page behind is inert until it is acknowledged.
    await expect(busyWith).toHaveCount(0) // hidden from assistive technology
    await receiver.keyboard.press('Tab')
    await expect(first.getByRole('button', { name: 'Acknowledge' })).toBeFocused() // focus stays in the dialog

    await receiver.keyboard.press('Enter')
    const second = receiver.getByRole('alertdialog', { name: 'Safety Alert: Equipment malfunction' })
    await expect(second).toBeVisible()
    await expect(second.getByRole('button', { name: 'Acknowledge' })).toBeFocused()
    await receiver.keyboard.press('Escape')
    await expect(receiver.getByRole('alertdialog')).toHaveCount(0)
    // Focus is back where the learner was, and both alerts are in the page's list.
    await expect(busyWith).toBeFocused()
    const list = receiver.getByTestId('safety-alerts').getByRole('listitem')
    await expect(list.filter({ hasText: 'Safety Alert: Need assistance' })).toHaveCount(1)
    await expect(list.filter({ hasText: 'Safety Alert: Equipment malfunction' })).toHaveCount(1)

    await senderContext.close()
    await receiverContext.close()
  })

  test('interrupts a learner on the Learning Hub, whose launcher holds the channel too', async ({ browser, baseURL }) => {
    const senderContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL })
    const sender = await senderContext.newPage()
    const hub = await (await browser.newContext({ viewport: { width: 375, height: 740 }, baseURL })).newPage()
    await hub.goto('/learning-hub')
    await expect(hub.getByTestId('hub-realtime-state')).toHaveText('Realtime: connected')
    await openCenter(sender)
    await sender.getByRole('button', { name: 'Emergency Stop' }).click()

    const dialog = hub.getByRole('alertdialog', { name: 'Safety Alert: Emergency stop requested' })
    await expect(dialog).toBeVisible()
    await expect(dialog.getByRole('button', { name: 'Acknowledge' })).toBeFocused()
    // On a phone it fits the screen.
    const box = (await dialog.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(375)
    await hub.keyboard.press('Space')
    await expect(hub.getByRole('alertdialog')).toHaveCount(0)
    await senderContext.close()
    await hub.context().close()
  })
})
