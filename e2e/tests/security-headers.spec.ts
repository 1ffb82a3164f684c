import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from '../support/test'

// The headers of every answer but the API's (internal/server/headers.go); plain
// HTTP here, so no Strict-Transport-Security.
function expectSecurityHeaders(headers: Record<string, string>, host: string, page = false) {
  const csp = headers['content-security-policy'] ?? ''
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name, sources]),
  )
  expect(directives.get('default-src')).toEqual(["'self'"])
  expect(directives.get('script-src')).toEqual(["'self'"])
  expect(directives.get('connect-src')).toEqual(["'self'", `ws://${host}`])
  expect(directives.get('frame-ancestors')).toEqual(["'none'"])
  expect(directives.get('object-src')).toEqual(["'none'"])
  expect(directives.get('base-uri')).toEqual(["'self'"])
  expect(directives.get('form-action')).toEqual(["'self'"])
  // The page admits its own <style> elements by a nonce; nothing else admits inline style.
  const styleSrc = directives.get('style-src') ?? []
  expect(styleSrc[0]).toBe("'self'")
  if (page) expect(styleSrc[1]).toMatch(/^'nonce-[A-Za-z0-9_-]{22}'$/)
  expect(styleSrc).toHaveLength(page ? 2 : 1)
  // Only the app's own origin: no other host in any directive.
  for (const [name, sources] of directives) {
    for (const source of sources) {
      expect(source, `${name} allows ${source}`).toMatch(/^('self'|'none'|'nonce-[A-Za-z0-9_-]+'|ws:\/\/127\.0\.0\.1:\d+)$/)
    }
  }
  expect(headers['x-content-type-options']).toBe('nosniff')
  expect(headers['referrer-policy']).toBe('same-origin')
  const permissions = headers['permissions-policy'] ?? ''
  for (const feature of ['camera', 'microphone', 'xr-spatial-tracking']) expect(permissions).toContain(`${feature}=(self)`)
  expect(permissions).toContain('geolocation=()')
  expect(headers['strict-transport-security']).toBeUndefined()
}

// The API's answers are data: they may load nothing and be framed by no
// one, and carry no Permissions-Policy or Referrer-Policy, which only
// documents obey.
function expectDataHeaders(headers: Record<string, string>) {
  expect(headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'")
  expect(headers['permissions-policy']).toBeUndefined()
  expect(headers['x-content-type-options']).toBe('nosniff')
  expect(headers['referrer-policy']).toBeUndefined()
  expect(headers['strict-transport-security']).toBeUndefined()
}

test('the page, an asset and an API answer carry the security headers', async ({ page, baseURL }) => {
  const host = new URL(baseURL!).host
  const res = await page.goto('/')
  expect(res?.status()).toBe(200)
  const headers = await res!.allHeaders()
  expectSecurityHeaders(headers, host, true)
  // The page carries the policy's nonce, for the <style> elements the app writes.
  const nonce = await page.locator('meta[property="csp-nonce"]').evaluate((m) => (m as HTMLMetaElement).nonce)
  expect(headers['content-security-policy']).toContain(`style-src 'self' 'nonce-${nonce}';`)

  const script = await page.locator('script[type="module"][src^="/assets/"]').first().getAttribute('src')
  const asset = await page.request.get(script!)
  expect(asset.status()).toBe(200)
  expectSecurityHeaders(asset.headers(), host)

  const api = await page.request.get('/api/trade-categories')
  expect(api.status()).toBe(200)
  expectDataHeaders(api.headers())

  const missing = await page.request.get('/api/no-such-endpoint')
  expect(missing.status()).toBe(404)
  expectDataHeaders(missing.headers())
})

test('the app refuses to be framed, and the suite notices a refusal', async ({ page, policy }) => {
  await page.goto('/')
  // A page of the same origin framing the app: frame-ancestors 'none'
  // blocks even that. The refusal is the one violation this test expects,
  // and the shared fixture must have recorded it.
  policy.allow(/frame-ancestors/)
  await page.evaluate(() => {
    const frame = document.createElement('iframe')
    frame.src = '/'
    document.body.append(frame)
  })
  await expect.poll(() => policy.violations.some((v) => v.includes('frame-ancestors'))).toBe(true)
})

test('every spec runs under the policy watch of support/test.ts', () => {
  const dir = dirname(fileURLToPath(import.meta.url))
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.spec.ts'))) {
    const source = readFileSync(join(dir, file), 'utf8')
    expect(source, `${file} imports @playwright/test itself`).not.toMatch(/from '@playwright\/test'/)
    expect(source, `${file} does not import support/test`).toMatch(/from '\.\.\/support\/test'/)
  }
})
