import { execFileSync } from 'node:child_process'
import { expect, type APIRequestContext, type BrowserContextOptions, type PlaywrightWorkerArgs } from '@playwright/test'
import type { FreshServer } from './fresh-server'

/** Cookies of a signed-in account, to open browser contexts as that account. */
export type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>

export interface Account {
  email: string
  password: string
  displayName: string
}

let counter = 0
function account(tag: string, displayName: string): Account {
  counter += 1
  const unique = `${process.pid}-${Date.now().toString(36)}-${counter}`
  return { email: `${tag}-${unique}@example.com`, password: `${tag} climbs the long scaffold`, displayName }
}

/**
 * `journeyman admin create` on the server's database (SQLite lets the CLI
 * write while the server runs); returns the token of the one-time setup
 * link it prints.
 */
export function createAdminWithCLI(server: FreshServer, admin: Account, org: string): string {
  const out = execFileSync(
    '../bin/journeyman',
    ['admin', 'create', '--email', admin.email, '--org', org, '--name', admin.displayName, '-db', server.db, '--url', server.base],
    { encoding: 'utf8' },
  )
  const link = /^setup link .*?: (\S+\/reset-password\/(\S+))$/m.exec(out)
  if (!link || !link[1].startsWith(`${server.base}/`)) throw new Error(`no setup link to ${server.base} in the admin CLI's output: ${out}`)
  return link[2]
}

/** A request context on the server holding the guest identity the page would have issued. */
async function asGuest(playwright: PlaywrightWorkerArgs['playwright'], server: FreshServer): Promise<APIRequestContext> {
  const api = await playwright.request.newContext({ baseURL: server.base })
  expect((await api.get('/api/me')).status()).toBe(200)
  return api
}

/**
 * An admin made with the CLI, who uses the setup link and invites an
 * instructor; the instructor signs up with the invite. Answers the
 * instructor's cookies, for browser contexts that drive the twins.
 */
export async function signedInInstructor(
  playwright: PlaywrightWorkerArgs['playwright'],
  server: FreshServer,
  org = 'Riverside Plant Training',
): Promise<{ instructor: Account; storageState: StorageState }> {
  const admin = account('admin', 'Ada Admin')
  const token = createAdminWithCLI(server, admin, org)
  const adminApi = await asGuest(playwright, server)
  const reset = await adminApi.post('/api/account/password-reset', { data: { token, password: admin.password } })
  expect(reset.status(), await reset.text()).toBe(200)
  expect(await reset.json()).toMatchObject({ guest: false, role: 'admin', organisation: { name: org } })
  const invite = await adminApi.post('/api/organisation/invites', { data: { role: 'instructor', expiresInDays: 1, maxUses: 1 } })
  expect(invite.status(), await invite.text()).toBe(201)
  const { url } = (await invite.json()) as { url: string }
  await adminApi.dispose()

  const instructor = account('instructor', 'Ivan Instructor')
  const api = await asGuest(playwright, server)
  const signUp = await api.post('/api/account/sign-up', {
    data: { email: instructor.email, password: instructor.password, displayName: instructor.displayName, inviteToken: url.slice(url.lastIndexOf('/') + 1) },
  })
  expect(signUp.status(), await signUp.text()).toBe(201)
  expect(await signUp.json()).toMatchObject({ guest: false, role: 'instructor', organisation: { name: org } })
  const storageState = await api.storageState()
  await api.dispose()
  return { instructor, storageState }
}

/** A learner of no organisation: a guest who signed up without an invite. */
export async function signedInLearner(playwright: PlaywrightWorkerArgs['playwright'], server: FreshServer): Promise<StorageState> {
  const learner = account('learner', 'Lena Learner')
  const api = await asGuest(playwright, server)
  const signUp = await api.post('/api/account/sign-up', { data: learner })
  expect(signUp.status(), await signUp.text()).toBe(201)
  expect(await signUp.json()).toMatchObject({ guest: false, role: 'learner', organisation: null })
  const storageState = await api.storageState()
  await api.dispose()
  return storageState
}

/** A signed-in person of an organisation: their account, id, cookies and an API context that carries them. */
export interface OrgPerson {
  account: Account
  id: string
  storageState: StorageState
  api: APIRequestContext
}

/** Signs up through an invite of the admin's and answers the new member, signed in. */
async function joinByInvite(
  playwright: PlaywrightWorkerArgs['playwright'],
  server: FreshServer,
  adminApi: APIRequestContext,
  who: Account,
  role: 'learner' | 'instructor',
  org: string,
): Promise<OrgPerson> {
  const invite = await adminApi.post('/api/organisation/invites', { data: { role, expiresInDays: 1, maxUses: 1 } })
  expect(invite.status(), await invite.text()).toBe(201)
  const { url } = (await invite.json()) as { url: string }
  const api = await asGuest(playwright, server)
  const signUp = await api.post('/api/account/sign-up', {
    data: { email: who.email, password: who.password, displayName: who.displayName, inviteToken: url.slice(url.lastIndexOf('/') + 1) },
  })
  expect(signUp.status(), await signUp.text()).toBe(201)
  const me = (await signUp.json()) as { id: string }
  expect(me).toMatchObject({ guest: false, role, organisation: { name: org } })
  return { account: who, id: me.id, storageState: await api.storageState(), api }
}

/**
 * An organisation as the CLI and its admin set it up: the admin (made with
 * the CLI, signed in through the setup link), an instructor and a learner
 * who joined by invite. Each comes with an API context signed in as them;
 * the caller disposes of them.
 */
export async function organisationWithLearner(
  playwright: PlaywrightWorkerArgs['playwright'],
  server: FreshServer,
  org = 'Riverside Plant Training',
): Promise<{ admin: OrgPerson; instructor: OrgPerson; learner: OrgPerson }> {
  const adminAccount = account('admin', 'Ada Admin')
  const token = createAdminWithCLI(server, adminAccount, org)
  const adminApi = await asGuest(playwright, server)
  const reset = await adminApi.post('/api/account/password-reset', { data: { token, password: adminAccount.password } })
  expect(reset.status(), await reset.text()).toBe(200)
  const adminMe = (await reset.json()) as { id: string }
  expect(adminMe).toMatchObject({ guest: false, role: 'admin', organisation: { name: org } })
  const admin: OrgPerson = { account: adminAccount, id: adminMe.id, storageState: await adminApi.storageState(), api: adminApi }
  const instructor = await joinByInvite(playwright, server, adminApi, account('instructor', 'Ivan Instructor'), 'instructor', org)
  const learner = await joinByInvite(playwright, server, adminApi, account('learner', 'Lena Learner'), 'learner', org)
  return { admin, instructor, learner }
}
