import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Browser, type Page } from '../support/test'
import { skipTour } from '../support/accounts'
import { startFreshServer, type FreshServer } from '../support/fresh-server'
import { organisationWithLearner, signedInLearner, type OrgPerson, type StorageState } from '../support/staff'
import { passModuleVerified, tradeModules, type CatalogModule } from '../support/training'

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

// One learner's way from training to a certificate, then its revocation: the tests build on each other.
test.describe.configure({ mode: 'serial', timeout: 120_000 })

const ORG = 'Riverside Plant Training'
// The plumbing programme: five modules whose scenes take 14 s each to train honestly.
const TRADE = 'plumbing'

let server: FreshServer
let instructor: OrgPerson
let learner: OrgPerson
let admin: OrgPerson
let modules: CatalogModule[]
let certificate: { id: string; certificate: { code: string; competencies: unknown[] } }

// A server of this file's own: the dashboard's and the benchmarks' figures are exactly this organisation's.
test.beforeAll(async ({ playwright }) => {
  test.setTimeout(180_000)
  server = await startFreshServer()
  ;({ admin, instructor, learner } = await organisationWithLearner(playwright, server, ORG))
  modules = await tradeModules(learner.api, TRADE)
  expect(modules.length).toBeGreaterThan(1)

  // The learner passes every module of the trade, the sessions side by side to keep the wall time to one scene's.
  const sessions = await Promise.all(modules.map((m) => passModuleVerified(learner.api, m.id)))
  expect(sessions.every((s) => s.verified && s.outcome === 'passed')).toBe(true)

  // The instructor signs off each module; the last sign-off completes the programme and issues the certificate.
  for (const [i, m] of modules.entries()) {
    const res = await instructor.api.post(`/api/users/${learner.id}/competencies/sign-off`, {
      data: i === 0 ? { moduleId: m.id, practical: true, note: 'Isolated the supply on the training rig' } : { moduleId: m.id },
    })
    expect(res.status(), await res.text()).toBe(200)
    const { certificate: issued } = await res.json()
    if (i < modules.length - 1) expect(issued).toBeNull()
    else certificate = issued
  }
  expect(certificate.certificate.code).toMatch(/^JXR-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/)
  expect(certificate.certificate.competencies).toHaveLength(modules.reduce((n, m) => n + m.learningObjectives.length, 0))
})

test.afterAll(async () => {
  await Promise.all([admin, instructor, learner].map((p) => p?.api.dispose()))
  await server?.stop()
})

/** A page in a browser of its own, signed in with storageState or a guest without it. */
async function open(browser: Browser, storageState?: StorageState, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ baseURL: server.base, storageState, viewport })
  const page = await context.newPage()
  await skipTour(page)
  return page
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' })

test('the learner finds the certificate on their account and prints it with every competency', async ({ browser }) => {
  const page = await open(browser, learner.storageState)
  await page.goto('/account')
  const list = page.getByRole('list', { name: 'Your certificates' })
  const item = list.getByRole('listitem').filter({ hasText: certificate.certificate.code })
  await expect(item).toContainText('Valid')
  await expect(page.getByRole('progressbar', { name: /^Plumbing programme: (\d+) of \1 competencies signed off$/ })).toBeVisible()
  await item.getByRole('link', { name: 'Plumbing programme' }).click()

  await expect(page).toHaveURL(new RegExp(`/certificates/${certificate.id}$`))
  await expect(page).toHaveTitle(/^Certificate \|/)
  const doc = page.getByTestId('certificate')
  await expect(doc.getByRole('heading', { level: 1, name: 'Certificate of Competence' })).toBeVisible()
  await expect(doc.getByTestId('certificate-learner')).toHaveText(learner.account.displayName)
  await expect(doc).toContainText(`every competency of the Plumbing programme by the instructors of ${ORG}`)
  const fact = (term: string) => doc.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd')
  await expect(fact('Signed by')).toHaveText(instructor.account.displayName)
  await expect(fact('Organisation')).toHaveText(ORG)
  await expect(fact('Issued')).toHaveText(/^\d{1,2} \w+ \d{4}$/)
  await expect(doc.getByTestId('certificate-code')).toHaveText(certificate.certificate.code)
  await expect(doc.getByTestId('certificate-verify-url')).toHaveText(`${server.base}/verify/${certificate.certificate.code}`)
  // Every competency of every module, under its module, with when, who signed it off and whether it was checked in practice.
  const table = doc.getByRole('table')
  await expect(table.getByRole('row')).toHaveCount(1 + certificate.certificate.competencies.length)
  for (const m of modules) {
    const group = table.locator('tbody').filter({ has: page.getByRole('rowheader', { name: m.title, exact: true }) })
    await expect(group.getByRole('row')).toHaveCount(m.learningObjectives.length)
    for (const [k, objective] of m.learningObjectives.entries()) {
      await expect(group.getByRole('row').nth(k).getByRole('cell')).toHaveText([
        objective,
        /^\d{1,2} \w+ \d{4}$/,
        instructor.account.displayName,
        m === modules[0] ? 'Yes' : 'No',
      ])
    }
  }
  await expect(doc.getByTestId('certificate-revoked')).toHaveCount(0)
  expect(await seriousViolations(page), '/certificates/:id').toEqual([])
  // Back to where the learner keeps it; staff go back to the learner in the portal.
  await expect(page.getByRole('link', { name: 'Your account' })).toHaveAttribute('href', '/account')
  const staff = await open(browser, instructor.storageState)
  await staff.goto(`/certificates/${certificate.id}`)
  await staff.getByRole('link', { name: `${learner.account.displayName} in the portal` }).click()
  await expect(staff).toHaveURL(new RegExp(`/portal/learners/${learner.id}$`))
  await expect(staff.getByRole('heading', { level: 1, name: learner.account.displayName })).toBeVisible()
  await staff.context().close()

  // Print calls the browser's print dialog.
  await page.evaluate(() => {
    ;(window as unknown as { printed: number }).printed = 0
    window.print = () => void (window as unknown as { printed: number }).printed++
  })
  await page.getByRole('button', { name: 'Print' }).click()
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1)

  // On paper: the certificate alone, black on white.
  await page.emulateMedia({ media: 'print' })
  await expect(nav(page)).toBeHidden()
  await expect(page.getByRole('contentinfo')).toBeHidden()
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden()
  await expect(page.getByRole('main').getByRole('link', { name: 'Your account' })).toBeHidden()
  await expect(doc).toBeVisible()
  const colours = await doc.evaluate((el) => ({
    page: getComputedStyle(document.body).backgroundColor,
    title: getComputedStyle(el.querySelector('h1')!).color,
    cell: getComputedStyle(el.querySelector('td')!).color,
  }))
  expect(colours).toEqual({ page: 'rgb(255, 255, 255)', title: 'rgb(0, 0, 0)', cell: 'rgb(0, 0, 0)' })
  // The table is no wider than the printable width of A4 (210 mm less 2 × 15 mm margins, at 96 px per inch).
  await page.setViewportSize({ width: Math.floor(((210 - 30) / 25.4) * 96), height: 1000 })
  const overflow = await doc.evaluate((el) => el.scrollWidth - el.clientWidth)
  expect(overflow).toBeLessThanOrEqual(0)
  await page.context().close()
})

test('anyone verifies the code signed out; the certificate is not shown to other people', async ({ browser, playwright }) => {
  const page = await open(browser)
  await page.goto(`/verify/${certificate.certificate.code}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Verify a certificate' })).toBeVisible()
  await expect(page.getByTestId('verdict').getByRole('heading', { name: 'Genuine certificate' })).toBeVisible()
  const doc = page.getByTestId('certificate')
  await expect(doc.getByTestId('certificate-learner')).toHaveText(learner.account.displayName)
  await expect(doc.getByRole('table').getByRole('row')).toHaveCount(1 + certificate.certificate.competencies.length)
  expect(await seriousViolations(page), '/verify/:code').toEqual([])

  // Typed loosely in the form, by keyboard: the address shows the code as printed and focus moves to the verdict.
  await page.goto('/verify')
  const input = page.getByLabel('Certificate code')
  await input.focus()
  await page.keyboard.type(certificate.certificate.code.toLowerCase().replace(/-/g, ' '))
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(new RegExp(`/verify/${certificate.certificate.code}$`))
  await expect(page.getByRole('heading', { name: 'Genuine certificate' })).toBeFocused()
  // Unknown codes and text that is no code.
  await page.goto('/verify/JXR-0000-0000-0000')
  await expect(page.getByRole('heading', { name: 'No certificate has this code' })).toBeVisible()
  await page.goto('/verify/hello')
  await expect(page.getByTestId('verdict')).toContainText('"hello" is not a certificate code')

  // The printable page is for the learner and their organisation's staff: a guest is asked to sign in ...
  await page.goto(`/certificates/${certificate.id}`)
  await expect(page).toHaveURL(new RegExp(`/sign-in\\?next=%2Fcertificates%2F${certificate.id}$`))
  await page.context().close()
  // ... and another learner is told there is no such certificate.
  const outsider = await open(browser, await signedInLearner(playwright, server))
  await outsider.goto(`/certificates/${certificate.id}`)
  await expect(outsider.getByRole('heading', { level: 1, name: 'Certificate not found' })).toBeVisible()
  await expect(outsider.getByTestId('certificate')).toHaveCount(0)
  await outsider.context().close()
})

test("the instructor's dashboard counts the organisation's certificate; the learner is benchmarked against the organisation", async ({ browser }) => {
  const staff = await open(browser, instructor.storageState)
  await staff.goto('/original')
  await expect(staff.getByTestId('stats-scope')).toHaveText(`${ORG} · your organisation`)
  await expect(staff.getByTestId('stat-totalCertifications')).toHaveText('1')
  await expect(staff.getByTestId('stat-totalXrSessions')).toHaveText(String(modules.length))
  await expect(staff.getByTestId('stat-activeLearners')).toHaveText('1')
  await staff.context().close()

  const page = await open(browser, learner.storageState)
  await page.goto('/analytics')
  await page.getByRole('tab', { name: 'Benchmarks' }).click()
  const panel = page.getByRole('tabpanel', { name: 'Benchmarks' })
  await expect(panel.getByTestId('benchmark-reference')).toContainText("Reference: your organisation's learners (1)")
  await expect(panel.getByText(/no cohort data/)).toHaveCount(0)
  await expect(panel.getByText('Sample data')).toHaveCount(0)
  // The only learner of the organisation is its mean: their figures and the reference agree.
  const safety = panel.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Safety %' }) })
  await expect(safety.getByRole('cell')).toHaveText(['100', '100'])
  const modulesRow = panel.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Modules / month' }) })
  const [you, reference] = await modulesRow.getByRole('cell').allTextContents()
  expect(you).toBe(reference)
  await page.context().close()
})

test('revoking one competency revokes the certificate: verification says so, the learner sees it, the count drops', async ({ browser }) => {
  const res = await instructor.api.post(`/api/users/${learner.id}/competencies/revoke`, {
    data: { moduleId: modules[1].id, competencies: [0], note: 'Joint failed the pressure test on re-inspection' },
  })
  expect(res.status(), await res.text()).toBe(200)
  expect((await res.json()).certificate).toMatchObject({ id: certificate.id, revokedAt: expect.any(String) })

  const page = await open(browser)
  await page.goto(`/verify/${certificate.certificate.code}`)
  await expect(page.getByTestId('verdict').getByRole('heading', { name: /^This certificate was revoked on \d{1,2} \w+ \d{4}$/ })).toBeVisible()
  await expect(page.getByTestId('certificate-revoked')).toContainText('REVOKED')
  // The public page does not say why.
  await expect(page.getByTestId('certificate-revoked')).not.toContainText('pressure test')
  expect(await seriousViolations(page), '/verify/:code revoked').toEqual([])
  await page.context().close()

  const own = await open(browser, learner.storageState)
  await own.goto('/account')
  await expect(own.getByRole('list', { name: 'Your certificates' }).getByRole('listitem').filter({ hasText: certificate.certificate.code })).toContainText('Revoked')
  await own.goto(`/certificates/${certificate.id}`)
  await expect(own.getByTestId('certificate-revoked')).toContainText('Reason: A competency it certifies was revoked: Joint failed the pressure test on re-inspection')
  await own.emulateMedia({ media: 'print' })
  await expect(own.getByTestId('certificate-revoked')).toBeVisible()
  await own.context().close()

  const staff = await open(browser, instructor.storageState)
  await staff.goto('/original')
  await expect(staff.getByTestId('stat-totalCertifications')).toHaveText('0')
  await staff.context().close()
})
