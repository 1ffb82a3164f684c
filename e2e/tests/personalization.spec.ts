import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Locator, type Page } from '../support/test'

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

const next = (page: Page) => page.getByRole('button', { name: 'Next' }).click()

/** Presses Tab until target has focus, as a keyboard user would (at most max presses). */
async function tabTo(page: Page, target: Locator, max = 40) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return
    await page.keyboard.press('Tab')
  }
  throw new Error(`${target} not reached in ${max} presses of Tab`)
}

/** A step's heading: its name says the step ("Step 2 of 7: How you learn"). */
const stepHeading = (page: Page, step: number, title: string) => page.getByRole('heading', { name: new RegExp(`^Step ${step} of 7 ?: ?${title}$`) })

const stepTitles = ['Experience and trade', 'How you learn', 'XR comfort', 'Training pace and feedback', 'Visual assistance', 'Audio and motor assistance', 'Display']

test.describe('personalization wizard', () => {
  test('seven steps with the defaults, saved on step 7, confirmation, kept over a reload and applied on other pages', async ({ page }) => {
    test.setTimeout(90_000) // a long flow with two axe scans on a shared machine
    await page.goto('/personalization')
    await expect(page.getByText('Step 1 of 7')).toBeVisible()
    await expect(page.getByRole('progressbar')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled()
    // Step 1: experience beginner, no trade chosen.
    await expect(page.getByRole('radio', { name: /^Beginner/ })).toBeChecked()
    for (const trade of ['Electrical', 'Plumbing', 'HVAC', 'Welding', 'Carpentry', 'Automotive']) {
      await expect(page.getByRole('radio', { name: trade, exact: true })).not.toBeChecked()
    }
    await page.getByRole('radio', { name: 'Welding', exact: true }).check()
    await next(page)
    await expect(page.getByRole('button', { name: 'Previous' })).toBeEnabled()
    // Step 2: learning style mixed, 30-minute sessions.
    await expect(page.getByRole('radio', { name: /^Mixed/ })).toBeChecked()
    await expect(page.getByRole('radio', { name: '30 minutes' })).toBeChecked()
    await expect(page.getByRole('radio', { name: '60+ minutes' })).toBeVisible()
    await next(page)
    // Step 3: comfort 5, motion medium.
    await expect(page.getByRole('slider', { name: 'XR comfort level' })).toHaveAttribute('aria-valuenow', '5')
    expect(await seriousViolations(page), 'step 3').toEqual([])
    await expect(page.getByRole('radio', { name: /^Medium/ })).toBeChecked()
    await next(page)
    // Step 4: difficulty moderate, safety 8, feedback moderate.
    await expect(page.getByRole('slider', { name: 'Safety emphasis' })).toHaveAttribute('aria-valuenow', '8')
    await expect(page.getByRole('radiogroup', { name: 'Difficulty progression' }).getByRole('radio', { name: /^Moderate/ })).toBeChecked()
    await expect(page.getByRole('radiogroup', { name: 'Feedback frequency' }).getByRole('radio', { name: /^Moderate/ })).toBeChecked()
    await next(page)
    // Step 5: visual assistance, none ticked.
    for (const name of ['Text-to-speech', 'High contrast', 'Large UI', 'Colour indicators', 'Magnification']) {
      await expect(page.getByRole('checkbox', { name })).not.toBeChecked()
    }
    await next(page)
    // Step 6: audio and motor assistance.
    await page.getByRole('checkbox', { name: 'Visual captions' }).check()
    await page.getByRole('checkbox', { name: 'Extended timeouts' }).check()
    await next(page)
    // Step 7: display, defaults then high contrast and large text.
    await expect(page.getByText('Step 7 of 7')).toBeVisible()
    await expect(page.getByRole('radio', { name: 'Default', exact: true })).toBeChecked()
    await expect(page.getByRole('radio', { name: 'Medium', exact: true })).toBeChecked()
    await expect(page.getByRole('radio', { name: /^Standard/ })).toBeChecked()
    await page.getByRole('radio', { name: 'High contrast', exact: true }).check()
    await page.getByRole('radio', { name: 'Large', exact: true }).check()

    const [request] = await Promise.all([page.waitForRequest((r) => r.url().endsWith('/api/personalization/save') && r.method() === 'POST'), next(page)])
    expect(request.postDataJSON()).toMatchObject({
      experienceLevel: 'beginner',
      primaryTrade: 'welding',
      learningStyle: 'mixed',
      xrComfortLevel: 5,
      preferredSessionLength: 30,
      motionSensitivity: 'medium',
      difficultyProgression: 'moderate',
      safetyEmphasis: 8,
      feedbackFrequency: 'moderate',
      visualAssistance: [],
      audioAssistance: ['visual-captions'],
      motorAssistance: ['extended-timeouts'],
      colorScheme: 'high-contrast',
      fontSize: 'large',
      uiComplexity: 'standard',
    })

    await expect(page.getByRole('heading', { name: 'Your training is personalized' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Start Personalized Training' })).toHaveAttribute('href', '/xr-training')
    expect(await seriousViolations(page), 'the confirmation screen').toEqual([])
    await page.getByRole('button', { name: 'Modify Preferences' }).click()
    await expect(page.getByText('Step 1 of 7')).toBeVisible()
    await expect(page.getByRole('radio', { name: 'Welding', exact: true })).toBeChecked()

    // A reload keeps the profile: the server has it and the wizard starts from it.
    await page.reload()
    await expect(page.getByRole('radio', { name: 'Welding', exact: true })).toBeChecked()
    const saved = await (await page.request.get('/api/personalization')).json()
    expect(saved).toMatchObject({ saved: true, colorScheme: 'high-contrast', fontSize: 'large', primaryTrade: 'welding' })

    // It applies on another page: black high-contrast background, 18 px root text.
    await page.goto('/learning-hub')
    await expect(page.locator('html')).toHaveAttribute('data-color-scheme', 'high-contrast')
    const styles = await page.evaluate(() => ({
      body: getComputedStyle(document.body).backgroundColor,
      text: getComputedStyle(document.body).color,
      root: getComputedStyle(document.documentElement).fontSize,
    }))
    expect(styles).toEqual({ body: 'rgb(0, 0, 0)', text: 'rgb(255, 255, 255)', root: '18px' })

    // And back to the default scheme, which is not black.
    await page.request.post('/api/personalization/save', { data: { colorScheme: 'default', fontSize: 'medium' } })
    await page.reload()
    await expect(page.locator('html')).toHaveAttribute('data-color-scheme', 'default')
    const after = await page.evaluate(() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.documentElement).fontSize])
    expect(after[0]).not.toBe('rgb(0, 0, 0)')
    expect(after[1]).toBe('16px')
  })

  test('Start Personalized Training opens the XR Training Center', async ({ page }) => {
    await page.goto('/personalization')
    for (let i = 1; i <= 7; i++) await next(page)
    await page.getByRole('link', { name: 'Start Personalized Training' }).click()
    await expect(page).toHaveURL(/\/xr-training$/)
    await expect(page.getByRole('heading', { level: 1, name: /XR Training Center/ })).toBeVisible()
  })

  test('by keyboard alone: Next and Previous move focus to the new step’s heading, the save to the confirmation', async ({ page }) => {
    await page.goto('/personalization')
    const nextButton = page.getByRole('button', { name: 'Next' })
    const previousButton = page.getByRole('button', { name: 'Previous' })
    await page.getByRole('radio', { name: /^Beginner/ }).focus()
    await page.keyboard.press('Tab') // into Primary trade, none chosen yet: its first radio
    await expect(page.getByRole('radio', { name: 'Electrical', exact: true })).toBeFocused()
    await page.keyboard.press('Space')
    await page.keyboard.press('Tab') // Previous is disabled on step 1
    await expect(nextButton).toBeFocused()
    await page.keyboard.press('Enter')

    const step2 = stepHeading(page, 2, stepTitles[1]!)
    await expect(step2).toBeFocused()
    // Reached by keyboard, the heading shows where focus is.
    expect(await step2.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid')

    // Previous back to step 1 disables Previous; focus is on step 1's heading, not lost to the page.
    await tabTo(page, previousButton)
    await page.keyboard.press('Enter')
    await expect(stepHeading(page, 1, stepTitles[0]!)).toBeFocused()
    await expect(previousButton).toBeDisabled()

    for (let step = 2; step <= 7; step++) {
      await tabTo(page, nextButton)
      await page.keyboard.press('Enter')
      await expect(stepHeading(page, step, stepTitles[step - 1]!)).toBeFocused()
    }

    // The last Next saves: focus goes to the confirmation's heading.
    await tabTo(page, nextButton)
    await page.keyboard.press('Enter')
    await expect(page.getByRole('heading', { name: 'Your training is personalized' })).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(page.getByRole('link', { name: 'Start Personalized Training' })).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(page.getByRole('button', { name: 'Modify Preferences' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(stepHeading(page, 1, stepTitles[0]!)).toBeFocused()
    await expect(page.getByRole('radio', { name: 'Electrical', exact: true })).toBeChecked()
  })

  test('a failed save is only logged', async ({ page }) => {
    const errors: string[] = []
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text())
    })
    await page.route('**/api/personalization/save', (route) => route.fulfill({ status: 500, body: 'boom' }))
    await page.goto('/personalization')
    for (let i = 1; i < 7; i++) await next(page)
    await expect(page.getByText('Step 7 of 7')).toBeVisible()
    await next(page)
    await expect.poll(() => errors.some((e) => e.includes('Failed to save personalization settings'))).toBe(true)
    await expect(page.getByText('Step 7 of 7')).toBeVisible()
    // Focus stays on Next, to try again.
    await expect(page.getByRole('button', { name: 'Next' })).toBeFocused()
    await expect(page.getByRole('heading', { name: 'Your training is personalized' })).toHaveCount(0)
    await expect(page.getByText(/Failed to save/)).toHaveCount(0)
  })

  test('high motion sensitivity and simple UI apply app-wide', async ({ page }) => {
    await page.request.get('/api/me') // one guest identity before the page's parallel first calls
    const res = await page.request.post('/api/personalization/save', { data: { motionSensitivity: 'high', uiComplexity: 'simple', colorScheme: 'dark' } })
    expect(res.ok()).toBe(true)
    await page.goto('/learning-hub')
    await expect(page.locator('html')).toHaveAttribute('data-reduced-motion', 'true')
    await expect(page.locator('html')).toHaveAttribute('data-ui-complexity', 'simple')
    await expect(page.locator('html')).toHaveAttribute('data-color-scheme', 'dark')
    // Transitions are cut everywhere; secondary detail (pathway descriptions) is hidden.
    const link = page.getByRole('link', { name: 'Open the XR Training Center' })
    expect(await link.evaluate((el) => getComputedStyle(el).transitionDuration)).toBe('1e-05s')
    await expect(page.getByText('The hands-on specialisations of a working tradesperson.')).toBeHidden()
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(5, 5, 5)')
  })
})
