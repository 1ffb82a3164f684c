import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A server of a test's own on a new database, for checks that other tests' data would disturb. */
export interface FreshServer {
  base: string
  /** Its SQLite file, for the admin CLI (`journeyman admin create -db`). */
  db: string
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

/**
 * Starts ../bin/journeyman on a free port and a temporary database, and waits until it is ready.
 * args are further flags, such as where the twins' simulated devices listen.
 */
export async function startFreshServer(args: string[] = []): Promise<FreshServer> {
  const dir = mkdtempSync(join(tmpdir(), 'journeyman-fresh-'))
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const db = join(dir, 'fresh.db')
  // The simulated devices listen on free ports too (the equipment shows where): at their fixed
  // defaults, two fresh servers in two workers at once collided, and the second exited.
  const devices = ['-modbus-port', '0', '-opcua-port', '0', '-enip-port', '0']
  const server: ChildProcess = spawn('../bin/journeyman', ['-addr', `127.0.0.1:${port}`, '-db', db, '-mqtt-listen', '127.0.0.1:0', ...devices, ...args], {
    stdio: 'ignore',
  })
  // A worker that exits without running its teardown must not leave the server behind.
  const orphanGuard = () => server.kill()
  process.once('exit', orphanGuard)
  // A server that could not start (its binary being rebuilt, a port taken meanwhile) says so at once.
  let exited = ''
  server.once('exit', (code, signal) => (exited = `journeyman exited (${signal ?? code}) before it was ready`))
  server.once('error', (err) => (exited = `journeyman did not start: ${err.message}`))
  const deadline = Date.now() + 45_000
  while ((await fetch(`${base}/readyz`).catch(() => null))?.status !== 200) {
    if (exited) throw new Error(exited)
    if (Date.now() > deadline) throw new Error(`journeyman on ${base} was not ready within 45 s`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return {
    base,
    db,
    stop: () => {
      process.off('exit', orphanGuard)
      server.kill()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
