import { expect, test } from '../support/test'
import { createAdmin, newPerson, setPasswordWithLink, signIn, skipTour, type Person } from '../support/accounts'
import { startFreshServer, type FreshServer } from '../support/fresh-server'

// A cmi5 course of our own, zipped here: staff import it on /cmi5, a member
// launches its AU, and the AU does what cmi5 asks of one (read the launch
// parameters, fetch its credential once, read LMS.LaunchData, send
// initialized, completed, passed and terminated). The LMS's launched and
// satisfied statements and the AU's are then read from the LRS.

let server: FreshServer
let admin: Person

test.beforeAll(async () => {
  server = await startFreshServer()
  admin = newPerson('cmi5-admin', 'Casey Course')
  await setPasswordWithLink(server, createAdmin(server, { email: admin.email, org: 'cmi5 Trade School', name: admin.name }), admin.password)
})
test.afterAll(() => server?.stop())
test.beforeEach(({ page }) => skipTour(page))

const AU_ID = 'https://example.com/cmi5/weld/au/1'
const COURSE_ID = 'https://example.com/cmi5/weld'

const structure = `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="${COURSE_ID}">
    <title><langstring lang="en-US">Weld inspection</langstring></title>
    <description><langstring lang="en-US">One lesson and its quiz</langstring></description>
  </course>
  <au id="${AU_ID}" moveOn="CompletedAndPassed" masteryScore="0.6" launchMethod="OwnWindow">
    <title><langstring lang="en-US">Reading a weld</langstring></title>
    <description><langstring lang="en-US">What a good bead looks like</langstring></description>
    <url>au/index.html</url>
    <launchParameters>difficulty=easy</launchParameters>
  </au>
</courseStructure>`

// The AU: a few lines of cmi5 (section 8 and 9), reporting what it did in the page.
const auPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reading a weld</title></head>
<body><h1>Reading a weld</h1><p id="status">starting</p><script src="au.js"></script></body></html>`
const auScript = `
(async () => {
  const status = document.getElementById('status')
  try {
    const q = new URLSearchParams(location.search)
    const endpoint = q.get('endpoint'), actor = JSON.parse(q.get('actor')), registration = q.get('registration'), activityId = q.get('activityId')
    const fetched = await (await fetch(q.get('fetch'), { method: 'POST' })).json()
    if (!fetched['auth-token']) throw new Error('fetch: ' + JSON.stringify(fetched))
    const again = await (await fetch(q.get('fetch'), { method: 'POST' })).json()
    const headers = { Authorization: 'Basic ' + fetched['auth-token'], 'X-Experience-API-Version': '1.0.3' }
    const stateURL = endpoint + 'activities/state?' + new URLSearchParams({ activityId, agent: JSON.stringify(actor), registration, stateId: 'LMS.LaunchData' })
    const res = await fetch(stateURL, { headers })
    if (!res.ok) throw new Error('LMS.LaunchData: ' + res.status + ' ' + (await res.text()))
    const launchData = await res.json()
    const context = JSON.parse(JSON.stringify(launchData.contextTemplate))
    context.registration = registration
    context.contextActivities.category = [{ id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5' }]
    const moveOn = JSON.parse(JSON.stringify(context))
    moveOn.contextActivities.category.push({ id: 'https://w3id.org/xapi/cmi5/context/categories/moveon' })
    const verb = (name) => ({ id: 'http://adlnet.gov/expapi/verbs/' + name, display: { 'en-US': name } })
    const statement = (name, ctx, result) => ({ id: crypto.randomUUID(), actor, verb: verb(name), object: { id: activityId, objectType: 'Activity' },
      context: ctx, timestamp: new Date().toISOString(), ...(result ? { result } : {}) })
    const send = async (list) => {
      const r = await fetch(endpoint + 'statements', { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(list) })
      if (!r.ok) throw new Error('statements: ' + r.status + ' ' + (await r.text()))
    }
    await send([statement('initialized', context)])
    await send([statement('completed', moveOn, { completion: true, duration: 'PT5S' })])
    const passedCtx = JSON.parse(JSON.stringify(moveOn))
    passedCtx.extensions['https://w3id.org/xapi/cmi5/context/extensions/masteryscore'] = launchData.masteryScore
    await send([statement('passed', passedCtx, { success: true, score: { scaled: 0.9 }, duration: 'PT6S' })])
    await send([statement('terminated', context, { duration: 'PT7S' })])
    status.textContent = 'done: ' + launchData.launchMode + ' ' + launchData.launchParameters + ' ' + launchData.moveOn + ' second fetch error ' + again['error-code']
  } catch (e) {
    status.textContent = 'failed: ' + e.message
  }
})()
`

/** A zip (stored, not compressed) of files: enough for the package reader. */
function zip(files: Record<string, string>): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc32 = (b: Buffer) => {
    let c = 0xffffffff
    for (const byte of b) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text)
    const nameBytes = Buffer.from(name)
    const crc = crc32(data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(nameBytes.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(data.length, 20)
    central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(nameBytes.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, nameBytes, data)
    centrals.push(central, nameBytes)
    offset += local.length + nameBytes.length + data.length
  }
  const dir = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(Object.keys(files).length, 8)
  end.writeUInt16LE(Object.keys(files).length, 10)
  end.writeUInt32LE(dir.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, dir, end])
}

test.describe('cmi5', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test('staff import a zipped course, a member launches its AU, and the AU and the LMS record it in the LRS', async ({ page }) => {
    await signIn(page, server.base, admin)
    await page.goto(`${server.base}/cmi5`)
    await expect(page.getByRole('heading', { level: 1, name: 'Courses' })).toBeVisible()

    // The page is reachable from the account menu.
    await page.getByRole('button', { name: /Account menu/ }).click()
    await expect(page.getByRole('menuitem', { name: 'Courses' })).toHaveAttribute('href', '/cmi5')
    await page.keyboard.press('Escape')

    const form = page.getByRole('form', { name: 'Import a course' })
    await form.getByLabel(/Import a cmi5 package/).setInputFiles({
      name: 'weld-inspection.zip',
      mimeType: 'application/zip',
      buffer: zip({ 'cmi5.xml': structure, 'au/index.html': auPage, 'au/au.js': auScript }),
    })
    await form.getByRole('button', { name: 'Import', exact: true }).click()
    await expect(form.getByRole('status')).toContainText('Imported “Weld inspection” with 1 lesson')

    const lessons = page.getByRole('list', { name: 'Lessons of Weld inspection' })
    await expect(lessons).toContainText('Reading a weld')
    await expect(lessons).toContainText('Complete and pass it · pass mark 60%')
    await lessons.getByRole('button', { name: 'Launch Reading a weld' }).click()

    // OwnWindow: the AU replaces the page.
    await expect(page).toHaveURL(/\/cmi5\/content\/[0-9a-f]+\/au\/index\.html\?/)
    await expect(page.locator('#status')).toHaveText('done: Normal difficulty=easy CompletedAndPassed second fetch error 1', { timeout: 15_000 })
    const launchURL = new URL(page.url())
    const registration = launchURL.searchParams.get('registration') ?? ''
    const activityId = launchURL.searchParams.get('activityId') ?? ''
    expect(activityId).not.toBe(AU_ID) // section 8.1: the LMS makes the AU's activity id

    // Staff read the organisation's statements with their sign-in.
    const res = await page.request.get(`${server.base}/xapi/statements?registration=${registration}&ascending=true`, {
      headers: { 'X-Experience-API-Version': '2.0.0' },
    })
    expect(res.status(), await res.text()).toBe(200)
    const body = (await res.json()) as {
      statements: { verb: { id: string }; object: { id: string }; context: { contextActivities?: { grouping?: { id: string }[] } } }[]
    }
    const verbs = body.statements.map((s) => s.verb.id.split('/').pop())
    expect(verbs).toEqual(['launched', 'initialized', 'completed', 'passed', 'satisfied', 'terminated'])
    expect(body.statements[0].object.id).toBe(activityId)
    expect(body.statements[0].context.contextActivities?.grouping?.[0].id).toBe(AU_ID)
    expect(body.statements[4].object.id).toBe(COURSE_ID)
  })
})
