import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from '@playwright/test'

/** A server of a test's own on a new database, for checks that other tests' data would disturb. */
export interface FreshServer {
  base: string
  stop: () => void
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

/** Starts ../bin/journeyman on a free port and a temporary database, and waits until it is ready. */
export async function startFreshServer(): Promise<FreshServer> {
  const dir = mkdtempSync(join(tmpdir(), 'journeyman-fresh-'))
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const server: ChildProcess = spawn('../bin/journeyman', ['-addr', `127.0.0.1:${port}`, '-db', join(dir, 'fresh.db'), '-mqtt-listen', '127.0.0.1:0'], {
    stdio: 'ignore',
  })
  // A worker that exits without running its teardown must not leave the server behind.
  const orphanGuard = () => server.kill()
  process.once('exit', orphanGuard)
  await expect.poll(async () => (await fetch(`${base}/readyz`).catch(() => null))?.status ?? 0, { timeout: 20_000 }).toBe(200)
  return {
    base,
    stop: () => {
      process.off('exit', orphanGuard)
      server.kill()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
