import { test as base, expect, type Browser, type BrowserContext } from '@playwright/test'

export { expect }
export type { APIRequestContext, Browser, BrowserContext, Locator, Page, Request } from '@playwright/test'

/**
 * What the browser says when the server's Content-Security-Policy or
 * Permissions-Policy stops something: Chromium logs "Refused to load …",
 * "Refused to apply inline style …", "Refused to connect …" for every
 * blocked load, and an error for a policy header it cannot read.
 */
const policyMessage = /Refused to |Content[- ]Security[- ]Policy|Permissions[- ]Policy/i

/**
 * Records policy violations in a context: the console messages above, and
 * the securitypolicyviolation events a page fires (also for violations
 * that log nothing, such as ones reported from an inline handler).
 */
async function watchPolicy(context: BrowserContext, violations: string[]): Promise<void> {
  context.on('console', (msg) => {
    if (policyMessage.test(msg.text())) violations.push(`${msg.page()?.url() ?? '?'}: ${msg.text()}`)
  })
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`Content-Security-Policy violation: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`)
    })
  })
}

/** The policy violations a test's browser reported, and the ones the test expects. */
export interface PolicyWatch {
  /** Every violation so far, as "page url: message". */
  violations: string[]
  /** Expects violations matching pattern: they do not fail the test. */
  allow: (pattern: RegExp) => void
}

/**
 * Every end-to-end test runs with the server's security headers on and
 * fails on any policy violation, in its own page and in any context it
 * opens with browser.newContext().
 */
export const test = base.extend<{ policy: PolicyWatch }>({
  policy: [
    async ({ browser, context }, use) => {
      const violations: string[] = []
      const allowed: RegExp[] = []
      await watchPolicy(context, violations)
      const newContext = browser.newContext
      ;(browser as Browser).newContext = async (...args: Parameters<Browser['newContext']>) => {
        const c = await newContext.apply(browser, args)
        await watchPolicy(c, violations)
        return c
      }
      try {
        await use({ violations, allow: (pattern) => allowed.push(pattern) })
      } finally {
        browser.newContext = newContext
      }
      const unexpected = violations.filter((v) => !allowed.some((a) => a.test(v)))
      expect(unexpected, 'the browser refused something under the security headers').toEqual([])
    },
    { auto: true },
  ],
})
