import { expect, type APIRequestContext, type PlaywrightWorkerArgs } from '@playwright/test'
import { createAdmin, newPerson, setPasswordWithLink, type Person } from './accounts'
import type { FreshServer } from './fresh-server'

/** The module the seeded learners train, and its steps as the scene defines them (internal/training/scenes.go). */
export const MODULE_ID = 'electrical-lockout-tagout'
const DON_PPE = { stepId: 'don-ppe', objectId: 'face-shield', action: 'grab' }
/** The third step: the second, stopping the conveyor, is left out of the seeded sessions. */
const OPEN_DISCONNECT = { stepId: 'open-disconnect', objectId: 'disconnect', action: 'click' }
const ALL_STEPS = [
  DON_PPE,
  { stepId: 'stop-conveyor', objectId: 'start-button', action: 'click' },
  OPEN_DISCONNECT,
  { stepId: 'apply-lock', objectId: 'padlock', action: 'grab' },
  { stepId: 'prove-tester', objectId: 'proving-unit', action: 'click' },
  { stepId: 'test-dead', objectId: 'motor-terminals', action: 'click' },
  { stepId: 'reprove-tester', objectId: 'proving-unit', action: 'click' },
  { stepId: 'try-start', objectId: 'start-button', action: 'click' },
]

/** A person with the id the server gave them, and an API context signed in as them. */
export interface Member extends Person {
  id: string
  api: APIRequestContext
}

/** What the portal's tests work on: a cohort of two learners taught by an instructor, with recorded sessions. */
export interface PortalWorld {
  admin: Member
  instructor: Member
  /** Zoe: two sessions, one verified (failed, 5 s long), one too fast to verify. */
  zoe: Member
  /** Abe: one session, too fast to verify. Sorted by name he comes first, by sessions last. */
  abe: Member
  cohort: { id: string; name: string }
  /** Zoe's verified session, as its end answered. */
  verifiedSession: { id: string; safetyScore: number | null }
  unverifiedSessionId: string
  dispose: () => Promise<void>
}

async function guestApi(playwright: PlaywrightWorkerArgs['playwright'], base: string): Promise<APIRequestContext> {
  const api = await playwright.request.newContext({ baseURL: base })
  expect((await api.get('/api/me')).status()).toBe(200)
  return api
}

async function signUp(playwright: PlaywrightWorkerArgs['playwright'], base: string, person: Person, inviteUrl: string): Promise<Member> {
  const api = await guestApi(playwright, base)
  const res = await api.post('/api/account/sign-up', {
    data: { email: person.email, password: person.password, displayName: person.name, inviteToken: inviteUrl.slice(inviteUrl.lastIndexOf('/') + 1) },
  })
  expect(res.status(), await res.text()).toBe(201)
  const me = (await res.json()) as { id: string }
  return { ...person, id: me.id, api }
}

async function invite(admin: APIRequestContext, data: Record<string, unknown>): Promise<string> {
  const res = await admin.post('/api/organisation/invites', { data: { expiresInDays: 1, ...data } })
  expect(res.status(), await res.text()).toBe(201)
  return ((await res.json()) as { url: string }).url
}

/** What the player sends as deviceType from a phone's browser: its user-agent string. */
export const PHONE_USER_AGENT = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'

async function startSession(api: APIRequestContext, deviceType = 'Meta Quest 3'): Promise<string> {
  const res = await api.post('/api/xr-sessions', { data: { moduleId: MODULE_ID, sessionType: 'vr', deviceType, startedAt: new Date().toISOString() } })
  expect(res.status(), await res.text()).toBe(201)
  return ((await res.json()) as { id: string }).id
}

function interactions(steps: { stepId: string; objectId: string; action: string }[], times: number[]) {
  return steps.map((s, seq) => ({ ...s, input: 'ray', sessionTime: times[seq], seq, timestamp: new Date().toISOString() }))
}

/** Sends the interactions, then ends the session; answers the ended record. */
async function recordAndEnd(api: APIRequestContext, id: string, list: ReturnType<typeof interactions>, durationSeconds: number) {
  const update = await api.patch(`/api/xr-sessions/${id}`, { data: { interactionData: { interactions: list, safetyChecks: [] }, duration: durationSeconds } })
  expect(update.status(), await update.text()).toBe(200)
  const end = await api.patch(`/api/xr-sessions/${id}`, {
    data: { endedAt: new Date().toISOString(), completionStatus: 'completed', duration: durationSeconds },
  })
  expect(end.status(), await end.text()).toBe(200)
  return (await end.json()) as { id: string; verified: boolean; safetyScore: number | null }
}

/**
 * Sets the portal's world up through the API, as people would through the
 * pages: the admin (made by the CLI) invites an instructor, creates the
 * cohort for them and invites two learners into it; the learners record
 * sessions as the player does.
 */
export async function seedPortal(playwright: PlaywrightWorkerArgs['playwright'], server: FreshServer, org: string): Promise<PortalWorld> {
  const adminPerson = newPerson('admin', 'Ada Admin')
  await setPasswordWithLink(server, createAdmin(server, { email: adminPerson.email, org, name: adminPerson.name }), adminPerson.password)
  const adminApi = await guestApi(playwright, server.base)
  const signIn = await adminApi.post('/api/account/sign-in', { data: { email: adminPerson.email, password: adminPerson.password } })
  expect(signIn.status(), await signIn.text()).toBe(200)
  const admin: Member = { ...adminPerson, id: ((await signIn.json()) as { id: string }).id, api: adminApi }

  const instructor = await signUp(playwright, server.base, newPerson('instructor', 'Ivan Instructor'), await invite(adminApi, { role: 'instructor', maxUses: 1 }))
  const cohortName = `Spring intake ${Date.now().toString(36)}`
  const created = await adminApi.post('/api/cohorts', { data: { name: cohortName, instructorId: instructor.id } })
  expect(created.status(), await created.text()).toBe(201)
  const cohort = { id: ((await created.json()) as { id: string }).id, name: cohortName }
  const learnerInvite = await invite(adminApi, { role: 'learner', cohortId: cohort.id, maxUses: 2 })
  const zoe = await signUp(playwright, server.base, newPerson('zoe', 'Zoe Zimmer'), learnerInvite)
  const abe = await signUp(playwright, server.base, newPerson('abe', 'Abe Archer'), learnerInvite)

  // Zoe's verified session: the first and third steps, each no faster than the
  // scene allows (3 s for a safety check, 1.5 s a click), and no action
  // ahead of the time the server saw pass since the start.
  const verifiedId = await startSession(zoe.api)
  const fast = await startSession(zoe.api, PHONE_USER_AGENT)
  const abeSession = await startSession(abe.api)
  // Sessions too fast to be real: recorded while the verified one's clock runs.
  const unverified = await recordAndEnd(zoe.api, fast, interactions(ALL_STEPS, [100, 200, 300, 400, 500, 600, 700, 800]), 1)
  expect(unverified.verified).toBe(false)
  expect((await recordAndEnd(abe.api, abeSession, interactions([DON_PPE], [50]), 1)).verified).toBe(false)
  await new Promise((resolve) => setTimeout(resolve, 3200))
  const verified = await recordAndEnd(zoe.api, verifiedId, interactions([DON_PPE, OPEN_DISCONNECT], [3000, 4600]), 5)
  expect(verified.verified, JSON.stringify(verified)).toBe(true)

  return {
    admin,
    instructor,
    zoe,
    abe,
    cohort,
    verifiedSession: { id: verified.id, safetyScore: verified.safetyScore },
    unverifiedSessionId: unverified.id,
    dispose: async () => {
      for (const m of [admin, instructor, zoe, abe]) await m.api.dispose()
    },
  }
}

/**
 * When a careful learner completes each step of the lockout scene, in ms of
 * the session's clock: none faster than the scene allows (3 s after the one
 * before for a safety check, 1.5 s for a plain click).
 */
const PASS_TIMES = [3000, 6100, 7700, 10_800, 13_900, 17_000, 20_100, 23_200]

/**
 * Records a verified pass of the lockout module for a learner, as the
 * player would: every step in order at a real pace. The server checks each
 * action against the time it saw pass since the start (allowing 2 s ahead),
 * so this waits about 22 s before sending them.
 */
export async function recordVerifiedPass(learner: Member): Promise<{ id: string; safetyScore: number | null }> {
  const id = await startSession(learner.api)
  // The last action is at 23.2 s of the session's clock; sent after 21.7 s of the server's, it is within the 2 s allowed.
  await new Promise((resolve) => setTimeout(resolve, 21_700))
  const ended = await recordAndEnd(learner.api, id, interactions(ALL_STEPS, PASS_TIMES), 24)
  expect(ended.verified, JSON.stringify(ended)).toBe(true)
  const listed = await learner.api.get(`/api/users/${learner.id}/xr-sessions`)
  const row = ((await listed.json()) as { id: string; outcome: string }[]).find((s) => s.id === id)
  expect(row?.outcome, 'the careful run passes').toBe('passed')
  return { id: ended.id, safetyScore: ended.safetyScore }
}

/** A small RFC 4180 reader for the exports: quoted cells, doubled quotes, CRLF, and the byte order mark spreadsheets want. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  const s = text.replace(/^\ufeff/, '')
  for (let i = 0; i < s.length; i++) {
    const c = s[i]
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        cell += '"'
        i++
      } else if (c === '"') quoted = false
      else cell += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      row.push(cell)
      cell = ''
    } else if (c === '\r' && s[i + 1] === '\n') {
      // The \n ends the row.
    } else if (c === '\n') {
      row.push(cell)
      rows.push(row)
      row = []
      cell = ''
    } else cell += c
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell)
    rows.push(row)
  }
  return rows
}
