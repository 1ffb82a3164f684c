import { Socket } from 'node:net'
import { expect, test } from '../support/test'
import { Browser, Controller, EthernetIP, Tag } from 'st-ethernet-ip'
import { startFreshServer, type FreshServer } from '../support/fresh-server'

// An EtherNet/IP client the project did not write, st-ethernet-ip, against
// a twin's simulated device, as it would talk to a Logix controller: it
// registers a session, opens a class 3 connection with Forward Open (or, on
// unconnected messaging, wraps every request in Unconnected Send to the
// controller in slot 0), reads the Identity object and the tag list, and
// reads tags. No browser is needed.
//
// st-ethernet-ip always connects to port 44818, so the server puts its
// devices on a loopback address of this worker's own, where 44818 is free
// whatever else runs on this machine.

interface Equipment {
  id: string
  model: string
  serialNumber: string
  status: string
  sensorData: Record<string, { value: number }>
  connectionParameters: { host: string; port: number }
}

const TWIN = 'weld-cell-4' // the seed's first EtherNet/IP twin
const host = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 256)}.${2 + Math.floor(Math.random() * 250)}`
let server: FreshServer
let twin: Equipment

test.beforeAll(async () => {
  server = await startFreshServer(['-devices-host', host, '-enip-port', '44818'])
  const res = await fetch(`${server.base}/api/digital-twin/equipment`)
  expect(res.ok).toBe(true)
  const found = ((await res.json()) as Equipment[]).find((eq) => eq.id === TWIN)
  if (!found) throw new Error(`no ${TWIN} in the fleet`)
  twin = found
  expect(twin.connectionParameters).toMatchObject({ host, port: 44818 })
})
test.afterAll(() => server?.stop())

/** The serial number the device reports: FNV-1a (32 bits) of the twin's. */
function serialOf(serial: string): number {
  let h = 0x811c9dc5
  for (const b of Buffer.from(serial)) h = Math.imul(h ^ b, 0x01000193) >>> 0
  return h
}

async function read(plc: Controller, name: string): Promise<unknown> {
  const tag = new Tag(name)
  await plc.readTag(tag)
  return tag.value
}

for (const connected of [true, false]) {
  test(`reads the twin's tags ${connected ? 'over a Forward Open connection' : 'through Unconnected Send to slot 0'}`, async () => {
    const plc = new Controller(connected)
    await plc.connect(twin.connectionParameters.host, 0) // with its setup: Identity object and tag list
    try {
      expect(plc.properties).toMatchObject({
        name: twin.model,
        serial_number: serialOf(twin.serialNumber),
        version: '1.1',
        run: twin.status === 'operational',
        faulted: false,
      })
      const listed = plc.tagList.map((t) => `${t.name}:${t.type.typeName}`)
      expect(listed).toEqual(expect.arrayContaining(['Temperature:REAL', 'Current:REAL', 'Status:DINT', 'Running:BOOL', 'TemperatureX10:INT']))

      // REAL carries a float32: the twin's reading, rounded to one.
      expect(await read(plc, 'Temperature')).toBe(Math.fround(twin.sensorData.temperature.value))
      expect(await read(plc, 'Current')).toBe(Math.fround(twin.sensorData.current.value))
      expect(await read(plc, 'Running')).toBe(twin.status === 'operational')
      expect(await read(plc, 'Status')).toBe(0) // operational
      expect(await read(plc, 'TemperatureX10')).toBe(Math.round(10 * twin.sensorData.temperature.value))
    } finally {
      await plc.disconnect() // Forward Close first when connected
    }
  })
}

test('a Forward Open routed to another slot is refused with the Connection Manager status', async () => {
  const plc = new Controller(true)
  try {
    await expect(plc.connect(twin.connectionParameters.host, 3)).rejects.toMatchObject({
      generalStatusCode: 0x01,
      extendedStatus: [0x0312], // invalid link address: nothing in slot 3
    })
  } finally {
    plc.destroy()
  }
})

test("ListIdentity over TCP, decoded by st-ethernet-ip's own parser", async () => {
  const reply = await new Promise<Buffer>((resolve, reject) => {
    const socket = new Socket()
    socket.once('error', reject)
    socket.once('data', (data) => {
      socket.destroy()
      resolve(data)
    })
    socket.connect(44818, host, () => socket.write(EthernetIP.encapsulation.header.build(EthernetIP.encapsulation.commands.ListIdentity)))
  })
  // The browser's parser, without its UDP broadcasts (this device answers on TCP).
  const browser = new Browser(0, '127.0.0.1', false)
  try {
    const identity = (browser as unknown as { _parseListIdentityResponse: (msg: Buffer) => Record<string, unknown> })._parseListIdentityResponse(reply)
    expect(identity).toMatchObject({
      EncapsulationVersion: 1,
      socketAddress: { sin_family: 2, sin_port: 44818, sin_addr: host },
      vendorID: 1,
      deviceType: 0x0e,
      productName: twin.model,
      serialNumber: `0x${serialOf(twin.serialNumber).toString(16)}`,
      revision: '1.1',
      state: 3, // operational
    })
  } finally {
    browser.socket.close()
  }
})
