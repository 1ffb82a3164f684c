import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from '@playwright/test'
import { chromiumArgs, chromiumPath } from './support/chromium'

// The main process picks a free port and a fresh database folder once; the
// workers inherit both through the environment, so all agree on one server.
if (!process.env.E2E_PORT) {
  process.env.E2E_PORT = execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
  ])
    .toString()
    .trim()
}
if (!process.env.E2E_DATA) process.env.E2E_DATA = mkdtempSync(join(tmpdir(), 'journeyman-e2e-'))

const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`

export default defineConfig({
  testDir: './tests',
  fullyParallel: true,
  workers: 2,
  // One retry on CI, where a busy 2-core machine can starve a media or socket event; a retried test is reported as flaky.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  use: {
    baseURL,
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `../bin/journeyman -addr 127.0.0.1:${process.env.E2E_PORT} -db ${join(process.env.E2E_DATA, 'journeyman.db')}`,
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'ignore',
    timeout: 60_000,
  },
})
