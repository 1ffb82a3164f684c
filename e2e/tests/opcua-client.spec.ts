import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { expect, test as base, type APIRequestContext } from '../support/test'
import { startFreshServer, type FreshServer } from '../support/fresh-server'
import { signedInInstructor } from '../support/staff'
import { addTwin, twinDefinition } from '../support/twins'

// The seed transformer's simulated OPC UA device, as an independent client
// (node-opcua, support/opcua-client-check.mjs) sees it: Objects leads to
// the twin's folder and its variables with engineering units, and a
// reading stored through the API reaches a subscription. A session signs
// in over Basic256Sha256 with the device login of a twin the instructor's
// organisation added; the shared seed twin's login is no one's to hand out.

interface OPCUAServer extends FreshServer {
  instructor: APIRequestContext
}
const test = base.extend<object, { opcuaServer: OPCUAServer }>({
  opcuaServer: [
    async ({ playwright }, use) => {
      const server = await startFreshServer()
      try {
        const { storageState } = await signedInInstructor(playwright, server)
        const instructor = await playwright.request.newContext({ baseURL: server.base, storageState })
        await use({ ...server, instructor })
        await instructor.dispose()
      } finally {
        await server.stop()
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],
})

interface Equipment {
  id: string
  name: string
  lastUpdated: string
  connectionParameters: { endpointUrl?: string }
  sensorData: Record<string, { value: number; unit: string }>
}

interface Variable {
  name: string
  nodeId: string
  typeDefinition: string
  value: unknown
  statusCode: string
  sourceTimestamp: string | null
  serverTimestamp: string | null
  dataType: string
  accessLevel: number
  userAccessLevel: number
  engineeringUnits?: { namespaceUri: string; unitId: number; displayName: string; description: string }
  euRange?: { low: number; high: number }
}

interface CheckEvent {
  event: 'subscribed' | 'result' | 'error'
  message?: string
  value?: unknown
  securityMode?: string
  namespaces?: string[]
  folder?: { nodeId: string; browseName: string; displayName: string; referenceType: string; typeDefinition: string }
  variables?: Variable[]
  subscription?: { nodeId: string; values: { value: unknown; sourceTimestamp: string | null }[] }
}

/** Runs the node-opcua check with args; `event` waits for a line of it, `exit` for its end. */
function runCheck(args: string[]) {
  const child = spawn(process.execPath, ['support/opcua-client-check.mjs', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  const events: CheckEvent[] = []
  const waiting: { want: CheckEvent['event']; resolve: (e: CheckEvent) => void }[] = []
  let stderr = ''
  child.stderr.on('data', (b) => (stderr += String(b)))
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (!line.startsWith('{"event":')) return // node-opcua's own log
    const e = JSON.parse(line) as CheckEvent
    events.push(e)
    for (const w of waiting.filter((w) => w.want === e.event)) w.resolve(e)
  })
  const exit = new Promise<{ code: number | null; events: CheckEvent[]; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, events, stderr })),
  )
  return {
    event: (want: CheckEvent['event']) =>
      new Promise<CheckEvent>((resolve, reject) => {
        const seen = events.find((e) => e.event === want)
        if (seen) return resolve(seen)
        waiting.push({ want, resolve })
        void exit.then(({ events, stderr }) => reject(new Error(`the check ended without "${want}": ${JSON.stringify(events)} ${stderr}`)))
      }),
    exit,
  }
}

async function transformer(api: APIRequestContext): Promise<Equipment> {
  const res = await api.get('/api/digital-twin/equipment')
  expect(res.ok()).toBe(true)
  const eq = ((await res.json()) as Equipment[]).find((e) => e.id === 'xfmr-t1')
  expect(eq?.connectionParameters.endpointUrl).toMatch(/^opc\.tcp:\/\/127\.0\.0\.1:\d+$/)
  return eq!
}

const SENSORS = ['Temperature', 'Pressure', 'Vibration', 'Current', 'Voltage', 'Rpm', 'Efficiency']
// UN/CEFACT common codes, as OPC UA's EUInformation.unitId.
const UNIT_IDS: Record<string, number> = { '°C': 4408652, kPa: 4935745, 'mm/s': 4403510, A: 4279632, V: 5655636, rpm: 5394509, '%': 20529 }

test.describe('OPC UA demo device, through node-opcua', () => {
  test.setTimeout(90_000)

  test('browses Objects to the twin, reads its units, and sees a stored reading arrive', async ({ opcuaServer }) => {
    const eq = await transformer(opcuaServer.instructor)
    const check = runCheck(['--endpoint', eq.connectionParameters.endpointUrl!, '--twin', eq.name, '--watch', 'Temperature', '--timeout', '20000'])
    const subscribed = await check.event('subscribed')
    expect(subscribed.value).toBe(eq.sensorData.temperature.value)

    const value = Math.round((eq.sensorData.temperature.value + 1 + Math.random() * 5) * 100) / 100
    const res = await opcuaServer.instructor.post(`/api/digital-twin/equipment/${eq.id}/sensor-data`, { data: { sensorData: { temperature: value } } })
    expect(res.status(), await res.text()).toBe(200)
    const stored = ((await res.json()) as { equipment: Equipment }).equipment

    const { code, events, stderr } = await check.exit
    const result = events.find((e) => e.event === 'result')
    expect(code, `${JSON.stringify(events)} ${stderr}`).toBe(0)
    expect(result?.namespaces?.[1]).toBe(`urn:journeyman:${eq.id}`)
    expect(result?.folder).toEqual({
      nodeId: `ns=1;s=${eq.id}`,
      browseName: `1:${eq.name}`,
      displayName: eq.name,
      referenceType: 'ns=0;i=35', // Organizes
      typeDefinition: 'ns=0;i=61', // FolderType
    })
    const variables = result!.variables!
    expect(variables.map((v) => v.name)).toEqual([...SENSORS, 'Status', 'AlertLevel', 'OperatingHours', 'SyncErrorCount'])
    for (const v of variables) {
      expect(v.nodeId).toBe(`ns=1;s=${v.name}`)
      expect(v.statusCode).toBe('Good')
      expect(v.userAccessLevel, `${v.name} is read-only to an anonymous client`).toBe(1)
      if (!SENSORS.includes(v.name)) {
        expect(v.engineeringUnits).toBeUndefined()
        continue
      }
      const unit = eq.sensorData[v.name.toLowerCase()].unit
      expect(v.typeDefinition).toBe('ns=0;i=2368') // AnalogItemType
      expect(v.dataType).toBe('ns=0;i=11') // Double
      expect(v.engineeringUnits).toMatchObject({ namespaceUri: 'http://www.opcfoundation.org/UA/units/un/cefact', unitId: UNIT_IDS[unit], displayName: unit })
      expect(v.euRange?.high).toBeGreaterThan(v.euRange!.low)
    }
    const temperature = variables.find((v) => v.name === 'Temperature')!
    expect(Date.parse(temperature.sourceTimestamp!)).toBe(Math.floor(Date.parse(eq.lastUpdated)))

    const seen = result!.subscription!.values
    expect(seen[0].value).toBe(eq.sensorData.temperature.value)
    expect(seen.at(-1)!.value).toBe(value)
    // The change carries the time the reading was taken, as stored.
    expect(Date.parse(seen.at(-1)!.sourceTimestamp!)).toBe(Math.floor(Date.parse(stored.lastUpdated)))
  })

  test('signs in with the device login over Basic256Sha256, and refuses a wrong password', async ({ opcuaServer }) => {
    const shared = await transformer(opcuaServer.instructor)
    const sharedLogin = await opcuaServer.instructor.get(`/api/equipment/${shared.id}/mqtt-credentials`)
    expect(sharedLogin.status()).toBe(403)
    expect(await sharedLogin.text()).toContain('shared demo equipment')

    // A twin of the instructor's organisation, served by a demo device of its own.
    const eq = await addTwin<Equipment>(opcuaServer.instructor, twinDefinition('Training Transformer T-9', 'OPC-UA'))
    expect(eq.connectionParameters.endpointUrl).toMatch(/^opc\.tcp:\/\/127\.0\.0\.1:\d+$/)
    const res = await opcuaServer.instructor.get(`/api/equipment/${eq.id}/mqtt-credentials`)
    expect(res.status(), await res.text()).toBe(200)
    const login = (await res.json()) as { username: string; password: string }
    expect(login.username).toBe(eq.id)
    const endpoint = eq.connectionParameters.endpointUrl!

    const signedIn = await runCheck(['--endpoint', endpoint, '--twin', eq.name, '--security', 'SignAndEncrypt', '--user', login.username, '--password', login.password]).exit
    expect(signedIn.code, `${JSON.stringify(signedIn.events)} ${signedIn.stderr}`).toBe(0)
    const result = signedIn.events.find((e) => e.event === 'result')!
    expect(result.securityMode).toBe('SignAndEncrypt')
    expect(result.folder?.nodeId).toBe(`ns=1;s=${eq.id}`)
    expect(result.variables?.find((v) => v.name === 'Temperature')?.engineeringUnits?.displayName).toBe('°C')

    const refused = await runCheck(['--endpoint', endpoint, '--twin', eq.name, '--security', 'SignAndEncrypt', '--user', login.username, '--password', `${login.password}x`]).exit
    expect(refused.code).toBe(1)
    expect(refused.events.find((e) => e.event === 'error')?.message).toMatch(/BadUserAccessDenied/)
  })
})
