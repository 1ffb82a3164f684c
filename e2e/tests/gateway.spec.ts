import { execFileSync } from 'node:child_process'
import { createServer } from 'node:net'
import ModbusRTU from 'modbus-serial'
import { expect, test as base, type Page } from '../support/test'
import { startFreshServer, type FreshServer } from '../support/fresh-server'
import { signedInInstructor, type StorageState } from '../support/staff'
import { EQUIPMENT, addTwin, twinDefinition } from '../support/twins'

// Issue 14: twins connected to real devices, checked with implementations
// nobody here wrote: a Modbus TCP device and client from the npm package
// modbus-serial, Debian's mbpoll (reading a demo device), and Mosquitto's
// broker and mosquitto_pub (e2e/ensure-tools.sh installs the Debian ones). The gateway polls
// the device, an independent client writes to it, and the page shows what
// was written within a poll and a flush.

interface GatewayServer extends FreshServer {
  instructor: StorageState
}
const test = base.extend<object, { gatewayServer: GatewayServer }>({
  gatewayServer: [
    async ({ playwright }, use) => {
      const server = await startFreshServer()
      try {
        const { storageState } = await signedInInstructor(playwright, server)
        await use({ ...server, instructor: storageState })
      } finally {
        await server.stop()
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ gatewayServer }, use) => use(gatewayServer.base),
  storageState: async ({ gatewayServer }, use) => use(gatewayServer.instructor),
})

const card = (page: Page, id: string) => page.locator(`[data-testid="equipment-card"][data-equipment-id="${id}"]`)

interface Equipment {
  id: string
  communicationProtocol: string
  syncStatus: string
  sensorData: Record<string, { value: number }>
  connectionParameters: Record<string, unknown>
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}


test('the gateway polls a modbus-serial device; a value another client writes to it shows on the page', async ({ page, browser, gatewayServer }) => {
  // The device: modbus-serial's own TCP server, holding register 0 is the
  // temperature in tenths of a degree (int16).
  const holding = new Array<number>(16).fill(0)
  holding[0] = 215
  const port = await freePort()
  const device = new ModbusRTU.ServerTCP(
    {
      getHoldingRegister: (addr: number) => holding[addr],
      setRegister: (addr: number, value: number) => {
        holding[addr] = value
      },
    },
    { host: '127.0.0.1', port, unitID: 7 },
  )
  await new Promise<void>((resolve) => device.on('initialized', () => resolve()))
  try {
    const eq = await addTwin<Equipment>(
      page.request,
      twinDefinition('Pump on modbus-serial', 'Modbus TCP', {
        address: `127.0.0.1:${port}`,
        unitId: 7,
        intervalMs: 250,
        timeoutMs: 1000,
        points: [{ sensor: 'temperature', register: 0, registerType: 'holding', dataType: 'int16', scale: 0.1, offset: 0 }],
      }),
    )
    expect(eq.connectionParameters).toMatchObject({ host: '127.0.0.1', port, unitId: 7, device: 'connected' })
    await page.goto('/digital-twin')
    const temperature = card(page, eq.id).locator('dd[data-sensor="temperature"]')
    await expect(temperature).toHaveText('21.5 °C')
    await expect(card(page, eq.id)).toContainText('Synced')
    // Its Protocols tab sends staff to the connection test instead of a demo device's Test Protocol.
    await card(page, eq.id).getByRole('button', { name: 'Pump on modbus-serial' }).click()
    const detail = page.getByTestId('equipment-detail')
    await detail.getByRole('tab', { name: 'Protocols' }).click()
    await expect(detail.getByTestId('real-device-note')).toContainText(`127.0.0.1:${port}`)
    await expect(detail.getByRole('link', { name: 'Test this connection on Manage equipment' })).toHaveAttribute(
      'href',
      `/digital-twin/manage?edit=${eq.id}`,
    )

    // A visitor watching the same twin learns that a real device serves it, not where the device is.
    const visitor = await browser.newContext({ baseURL: gatewayServer.base, storageState: { cookies: [], origins: [] } })
    const watching = await visitor.newPage()
    await watching.goto('/digital-twin')
    await card(watching, eq.id).getByRole('button', { name: 'Pump on modbus-serial' }).click()
    const seen = watching.getByTestId('equipment-detail')
    await seen.getByRole('tab', { name: 'Protocols' }).click()
    await expect(seen.getByTestId('real-device-note')).toContainText('Connected to its real device;')
    await expect(seen).not.toContainText(`127.0.0.1:${port}`)
    await visitor.close()

    // An independent client writes the register, as a plant HMI would.
    const client = new ModbusRTU()
    await client.connectTCP('127.0.0.1', { port })
    client.setID(7)
    await client.writeRegister(0, 487)
    client.close(() => {})
    await expect(temperature).toHaveText('48.7 °C', { timeout: 5_000 })

    // The device goes away: the twin says so.
    await new Promise<void>((resolve) => device.close(() => resolve()))
    await expect(card(page, eq.id)).toContainText('Disconnected', { timeout: 10_000 })
  } finally {
    device.close(() => {})
  }
})

test('an MQTT twin follows a device publishing through Mosquitto with mosquitto_pub', async ({ page }) => {
  const broker = process.env.JOURNEYMAN_TEST_MQTT_URL ?? (process.env.CI === 'true' ? '' : 'tcp://127.0.0.1:1883')
  expect(broker, 'JOURNEYMAN_TEST_MQTT_URL names the Mosquitto broker').not.toBe('')
  const url = new URL(broker)
  const topic = `plant/e2e/${Date.now()}-${Math.random().toString(16).slice(2)}`
  const eq = await addTwin<Equipment>(
      page.request,
      twinDefinition('Inverter on Mosquitto', 'MQTT', {
      address: `tcp://${url.hostname}:${url.port || 1883}`,
      topic,
      intervalMs: 1000,
      timeoutMs: 2000,
      points: [{ sensor: 'efficiency', field: 'eff', scale: 1, offset: 0 }],
    }),
  )
  await page.goto('/digital-twin')
  const efficiency = card(page, eq.id).locator('dd[data-sensor="efficiency"]')
  // The gateway subscribes within a moment of the twin's creation; publish
  // until a message has reached it.
  await expect(async () => {
    execFileSync('mosquitto_pub', ['-h', url.hostname, '-p', url.port || '1883', '-q', '1', '-t', topic, '-m', '{"eff": 96.4}'])
    await expect(efficiency).toHaveText('96.4%', { timeout: 1_000 })
  }).toPass({ timeout: 15_000 })
})

test('modbus-serial and mbpoll read a demo device at the address the API names', async ({ page }) => {
  const list = (await (await page.request.get(EQUIPMENT)).json()) as Equipment[]
  const eq = list.find((e) => e.id === 'pnl-lp2a')!
  const { host, port } = eq.connectionParameters as { host: string; port: number }
  const client = new ModbusRTU()
  await client.connectTCP(host, { port })
  client.setID(1)
  const { buffer } = await client.readHoldingRegisters(0, 2)
  client.close(() => {})
  expect(buffer.readFloatBE(0)).toBeCloseTo(eq.sensorData.temperature.value, 3)
  // mbpoll reads the same float, high word first (-B).
  const out = execFileSync('mbpoll', ['-m', 'tcp', '-p', String(port), '-a', '1', '-t', '4:float', '-B', '-0', '-r', '0', '-1', host]).toString()
  const m = /\[0\]:\s+(-?[\d.]+)/.exec(out)
  expect(m, out).not.toBeNull()
  expect(Number(m![1])).toBeCloseTo(eq.sensorData.temperature.value, 3)
})
