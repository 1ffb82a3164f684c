import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

/** A server of a test's own on a new database, for checks that other tests' data would disturb. */
export interface FreshServer {
  base: string
  /** Its SQLite file, for the admin CLI (`journeyman admin create -db`). */
  db: string
  /** The one-time link it logged for setting the new deployment up in the browser. */
  setupUrl: string
  /** Stops the server and, once it has exited, removes its database. */
  stop: () => Promise<void>
}

/** How many of the server's last log lines an error quotes. */
const logTail = 20

/**
 * Starts ../bin/journeyman on a port of its choosing and a temporary database, and waits until
 * it is ready. args are further flags, such as where the twins' simulated devices listen.
 */
export async function startFreshServer(args: string[] = []): Promise<FreshServer> {
  const dir = mkdtempSync(join(tmpdir(), 'journeyman-fresh-'))
  const db = join(dir, 'fresh.db')
  // Every port is the server's own choice, read back from its log: a port picked here and freed
  // for the server to take could be taken by another worker's connection in between (a server
  // exited at start in CI that way). At fixed defaults, two fresh servers in two workers at once
  // collided on the simulated devices' ports the same way.
  const ports = ['-addr', '127.0.0.1:0', '-mqtt-listen', '127.0.0.1:0', '-modbus-port', '0', '-opcua-port', '0', '-enip-port', '0']
  const server = spawn('../bin/journeyman', [...ports, '-db', db, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  // A worker that exits without running its teardown must not leave the server behind.
  const orphanGuard = () => server.kill()
  process.once('exit', orphanGuard)
  const exit = new Promise<void>((resolve) => server.once('exit', () => resolve()))

  // The log is read to its end, or a full pipe would stall the server's writes.
  const lines: string[] = []
  let base = ''
  let setupUrl = ''
  createInterface({ input: server.stderr }).on('line', (line) => {
    lines.push(line)
    if (lines.length > logTail) lines.shift()
    if (!base && line.includes('"msg":"listening"')) base = (JSON.parse(line) as { url: string }).url
    if (!setupUrl && line.includes('"msg":"no organisation yet')) setupUrl = (JSON.parse(line) as { url: string }).url
  })
  const failed = (why: string) => new Error(`${why}; its last log lines:\n${lines.join('\n')}`)
  // A server that could not start (its binary being rebuilt, say) says so at once.
  let exited = ''
  server.once('exit', (code, signal) => (exited = `journeyman exited (${signal ?? code}) before it was ready`))
  server.once('error', (err) => (exited = `journeyman did not start: ${err.message}`))
  const deadline = Date.now() + 45_000
  while (!base || (await fetch(`${base}/readyz`).catch(() => null))?.status !== 200) {
    if (exited) throw failed(exited)
    if (Date.now() > deadline) throw failed(`journeyman was not ready within 45 s`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return {
    base,
    db,
    setupUrl,
    stop: async () => {
      process.off('exit', orphanGuard)
      // Its files are removed once it has exited: while it shuts down it still writes them.
      if (server.exitCode === null && server.signalCode === null) {
        server.kill()
        const killed = setTimeout(() => server.kill('SIGKILL'), 10_000)
        await exit
        clearTimeout(killed)
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
