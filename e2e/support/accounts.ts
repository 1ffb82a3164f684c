import { execFileSync } from 'node:child_process'
import { expect, type Page } from '@playwright/test'
import type { FreshServer } from './fresh-server'

/**
 * `journeyman admin create` against the server's database (SQLite lets the
 * CLI write while the server runs); returns the one-time setup link it prints.
 */
export function createAdmin(server: FreshServer, admin: { email: string; org: string; name: string }): string {
  const out = execFileSync('../bin/journeyman', ['admin', 'create', '--email', admin.email, '--org', admin.org, '--name', admin.name, '-db', server.db, '--url', server.base], {
    encoding: 'utf8',
  })
  const link = /^setup link.*?(\S+\/reset-password\/\S+)$/m.exec(out)?.[1]
  if (!link) throw new Error(`no setup link in the admin CLI's output: ${out}`)
  return link
}

/** Uses a setup or reset link through the API, as the page would, and returns nothing: the password is set. */
export async function setPasswordWithLink(server: FreshServer, link: string, password: string): Promise<void> {
  const token = link.slice(link.lastIndexOf('/') + 1)
  const res = await fetch(`${server.base}/api/account/password-reset`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.base },
    body: JSON.stringify({ token, password }),
  })
  if (!res.ok) throw new Error(`setting the admin's password: ${res.status} ${await res.text()}`)
}

let counter = 0
/** An address no other test uses, even across retries and workers. */
export function uniqueEmail(tag: string): string {
  counter += 1
  return `${tag}-${process.pid}-${Date.now().toString(36)}-${counter}@example.com`
}

export interface Person {
  email: string
  name: string
  password: string
}

export function newPerson(tag: string, name: string): Person {
  return { email: uniqueEmail(tag), name, password: `${tag} walks the long scaffold` }
}

/** Fills and sends the sign-up form on the current page. */
export async function fillSignUp(page: Page, person: Person) {
  await page.getByLabel('Email').fill(person.email)
  await page.getByLabel('Display name').fill(person.name)
  await page.getByLabel('Password', { exact: true }).fill(person.password)
  await page.getByRole('button', { name: 'Create account' }).click()
}

/** Signs in through /sign-in and waits until the page has left it. */
export async function signIn(page: Page, base: string, person: Pick<Person, 'email' | 'password'>, next?: string) {
  await page.goto(`${base}/sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`)
  await page.getByLabel('Email').fill(person.email)
  await page.getByLabel('Password', { exact: true }).fill(person.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).not.toHaveURL(/\/sign-in/)
}

/** Marks the browser as a returning visitor's, so the home page's guided tour does not open over the page. */
export async function skipTour(page: Page) {
  await page.addInitScript(() => localStorage.setItem('journeyman-tour-completed', 'true'))
}
