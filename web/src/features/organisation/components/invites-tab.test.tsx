import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Invite } from '@/api/organisation'
import { fakeApi } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'
import { InvitesTab, checkInviteForm, inviteStatus } from './invites-tab'

afterEach(() => vi.unstubAllGlobals())

const created = {
  id: 'i1',
  role: 'instructor',
  cohort: null,
  maxUses: 1,
  uses: 0,
  expiresAt: '2026-12-01T00:00:00Z',
  revoked: false,
  createdAt: '2026-11-24T10:00:00Z',
  createdBy: { id: 'a1', displayName: 'Ada Lovelace' },
  url: 'http://app.test/invite/abc123',
}

/** The server: no invites, then the one made; the POST waits for release when asked to. */
function server({ hold = false, fail = false } = {}) {
  let made = false
  let release = () => {}
  const answered = new Promise<void>((resolve) => (release = resolve))
  const fetchMock = fakeApi({
    'GET /api/cohorts': { body: [] },
    'GET /api/organisation/invites': () => ({ body: made ? [created] : [] }),
    'POST /api/organisation/invites': () => {
      if (fail) return { status: 500, body: { message: 'internal error' } }
      made = true
      return { status: 201, body: created }
    },
  })
  if (hold) {
    const answer = fetchMock.getMockImplementation()!
    fetchMock.mockImplementation(async (input, init) => {
      if ((init?.method ?? 'GET') === 'POST') await answered
      return answer(input, init)
    })
  }
  return { release }
}

describe('InvitesTab: creating an invite by keyboard', () => {
  it('keeps focus on Create while it waits, then moves it to the new link, selected, and says the link was made', async () => {
    const user = userEvent.setup()
    const { release } = server({ hold: true })
    renderWithApp(<InvitesTab />)
    const form = screen.getByRole('form', { name: 'Create an invite link' })
    await user.selectOptions(within(form).getByLabelText('Role'), 'instructor')
    const create = within(form).getByRole('button', { name: 'Create invite link' })
    create.focus()
    await user.keyboard('{Enter}')
    // Waiting: the button says so and keeps focus (a disabled one would drop it to <body>).
    expect(await within(form).findByRole('button', { name: 'Creating…' })).toHaveAttribute('aria-disabled', 'true')
    expect(document.activeElement).toBe(create)
    release()

    const link = await screen.findByRole('textbox', { name: 'New invite link' })
    await waitFor(() => expect(document.activeElement).toBe(link))
    expect(link).toHaveValue(created.url)
    // Selected, so Ctrl+C copies it; described by its terms and the warning.
    expect([link as HTMLInputElement].map((i) => [i.selectionStart, i.selectionEnd])).toEqual([[0, created.url.length]])
    expect(link).toHaveAccessibleDescription(/^Shown only now: copy it before leaving\. Instructor; single use; expires /)
    expect(within(form).getByRole('status')).toHaveTextContent('Invite link created.')
    // Tab reaches its Copy button next.
    await user.tab()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Copy new invite link' }))
  })

  it('a second invite replaces the first link, takes focus again and is announced again', async () => {
    const user = userEvent.setup()
    server()
    renderWithApp(<InvitesTab />)
    const form = screen.getByRole('form', { name: 'Create an invite link' })
    await user.click(within(form).getByRole('button', { name: 'Create invite link' }))
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'New invite link' })))
    within(form).getByRole('button', { name: 'Create invite link' }).focus()
    await user.keyboard('{Enter}')
    // The status empties while the next is made, so the same words are read out again.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'New invite link' })))
    expect(within(form).getByRole('status')).toHaveTextContent('Invite link created.')
    expect(screen.getAllByRole('textbox', { name: 'New invite link' })).toHaveLength(1)
  })

  it('a refusal is an alert and focus stays on Create', async () => {
    const user = userEvent.setup()
    server({ fail: true })
    renderWithApp(<InvitesTab />)
    const form = screen.getByRole('form', { name: 'Create an invite link' })
    const create = within(form).getByRole('button', { name: 'Create invite link' })
    create.focus()
    await user.keyboard('{Enter}')
    await waitFor(() => expect(within(form).getByRole('alert')).toHaveTextContent('Something went wrong on our side (500). Please try again.'))
    expect(document.activeElement).toBe(within(form).getByRole('button', { name: 'Create invite link' }))
    expect(screen.queryByRole('textbox', { name: 'New invite link' })).not.toBeInTheDocument()
  })
})

describe('InvitesTab: revoking an invite by keyboard', () => {
  const active = { ...created, expiresAt: '2099-01-01T00:00:00Z' }

  it('asks first, and Keep it sends nothing and gives focus back to Revoke', async () => {
    const user = userEvent.setup()
    const fetchMock = fakeApi({ 'GET /api/cohorts': { body: [] }, 'GET /api/organisation/invites': { body: [active] } })
    renderWithApp(<InvitesTab />)
    const list = await screen.findByRole('list', { name: 'Invites' })
    const button = within(list).getByRole('button', { name: /^Revoke Instructor invite, created / })
    button.focus()
    await user.keyboard('{Enter}')
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke this invite?' })
    expect(dialog).toHaveTextContent(/stops working at once for anyone who has not used it/)
    // Enter alone never revokes: the dialog opens on Keep it.
    expect(within(dialog).getByRole('button', { name: 'Keep it' })).toHaveFocus()
    await user.keyboard('{Enter}')
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument())
    expect(button).toHaveFocus()
    expect(fetchMock).not.toHaveBeenCalledWith(expect.stringContaining('/api/organisation/invites/i1'), expect.anything())
  })

  it('revokes once confirmed, then moves focus to the invite, now revoked, and says so', async () => {
    const user = userEvent.setup()
    let revoked = false
    let release = () => {}
    const answered = new Promise<void>((resolve) => (release = resolve))
    const fetchMock = fakeApi({
      'GET /api/cohorts': { body: [] },
      'GET /api/organisation/invites': () => ({ body: [{ ...active, revoked }] }),
      'DELETE /api/organisation/invites/i1': () => {
        revoked = true
        return { status: 204 }
      },
    })
    const answer = fetchMock.getMockImplementation()!
    fetchMock.mockImplementation(async (input, init) => {
      if (init?.method === 'DELETE') await answered
      return answer(input, init)
    })
    renderWithApp(<InvitesTab />)
    const list = await screen.findByRole('list', { name: 'Invites' })
    within(list).getByRole('button', { name: /^Revoke Instructor invite, created / }).focus()
    await user.keyboard('{Enter}')
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke this invite?' })
    await user.tab()
    expect(within(dialog).getByRole('button', { name: 'Revoke invite' })).toHaveFocus()
    await user.keyboard('{Enter}')
    // Waiting, the button says so and keeps focus: a disabled one would drop it out of the dialog.
    const waiting = await within(dialog).findByRole('button', { name: 'Revoking…' })
    expect(waiting).toHaveAttribute('aria-disabled', 'true')
    expect(waiting).toHaveFocus()
    release()

    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument())
    await waitFor(() => expect(within(list).queryByRole('button', { name: /^Revoke/ })).not.toBeInTheDocument())
    await waitFor(() => expect(document.activeElement).toHaveTextContent(/^Instructor invite\s*Revoked$/))
    expect(screen.getAllByRole('status').some((s) => s.textContent === 'Invite revoked: its link no longer works.')).toBe(true)
  })

  it('shows a refusal in the dialog and keeps the invite', async () => {
    const user = userEvent.setup()
    fakeApi({
      'GET /api/cohorts': { body: [] },
      'GET /api/organisation/invites': { body: [active] },
      'DELETE /api/organisation/invites/i1': { status: 500, body: { message: 'boom' } },
    })
    renderWithApp(<InvitesTab />)
    const list = await screen.findByRole('list', { name: 'Invites' })
    await user.click(within(list).getByRole('button', { name: /^Revoke / }))
    const dialog = await screen.findByRole('alertdialog')
    await user.click(within(dialog).getByRole('button', { name: 'Revoke invite' }))
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Something went wrong on our side (500)'))
    expect(within(dialog).getByRole('button', { name: 'Revoke invite' })).toBeEnabled()
  })
})

describe('InvitesTab: a new link revoked', () => {
  it('is no longer offered for copying', async () => {
    const user = userEvent.setup()
    const active = { ...created, expiresAt: '2099-01-01T00:00:00Z' }
    let made = false
    let revoked = false
    fakeApi({
      'GET /api/cohorts': { body: [] },
      'GET /api/organisation/invites': () => ({ body: made ? [{ ...active, revoked }] : [] }),
      'POST /api/organisation/invites': () => {
        made = true
        return { status: 201, body: active }
      },
      'DELETE /api/organisation/invites/i1': () => {
        revoked = true
        return { status: 204 }
      },
    })
    renderWithApp(<InvitesTab />)
    await user.click(screen.getByRole('button', { name: 'Create invite link' }))
    expect(await screen.findByRole('textbox', { name: 'New invite link' })).toHaveValue(active.url)
    const list = await screen.findByRole('list', { name: 'Invites' })
    await user.click(within(list).getByRole('button', { name: /^Revoke / }))
    await user.click(await screen.findByRole('button', { name: 'Revoke invite' }))
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'New invite link' })).not.toBeInTheDocument())
    expect(screen.queryByText('Invite link created.')).not.toBeInTheDocument()
  })
})

const form = { role: 'learner' as const, cohortId: '', expiresInDays: '7', multiUse: false, maxUses: '30' }

describe('checkInviteForm', () => {
  it('makes a single-use invite without a cohort', () => {
    expect(checkInviteForm(form)).toEqual({ ok: true, input: { role: 'learner', expiresInDays: 7, maxUses: 1 } })
  })

  it('makes a multi-use invite to a cohort', () => {
    expect(checkInviteForm({ ...form, role: 'instructor', cohortId: 'c1', multiUse: true, maxUses: '25' })).toEqual({
      ok: true,
      input: { role: 'instructor', cohortId: 'c1', expiresInDays: 7, maxUses: 25 },
    })
  })

  it('names the fields out of range', () => {
    expect(checkInviteForm({ ...form, expiresInDays: '31', multiUse: true, maxUses: '1001' })).toEqual({
      ok: false,
      fields: { expiresInDays: 'Expiry must be a whole number of days from 1 to 30.', maxUses: 'Maximum uses must be a whole number from 2 to 1000.' },
    })
    expect(checkInviteForm({ ...form, expiresInDays: '2.5' }).ok).toBe(false)
    expect(checkInviteForm({ ...form, expiresInDays: '' }).ok).toBe(false)
    // A single-use invite ignores the uses box.
    expect(checkInviteForm({ ...form, maxUses: 'x' }).ok).toBe(true)
  })
})

describe('inviteStatus', () => {
  const invite: Invite = {
    id: 'i1',
    role: 'learner',
    cohort: null,
    maxUses: 2,
    uses: 1,
    expiresAt: '2026-12-01T00:00:00Z',
    revoked: false,
    createdAt: '2026-11-20T00:00:00Z',
    createdBy: { id: 'u1', displayName: 'Ada' },
  }
  const now = new Date('2026-11-25T00:00:00Z')
  it('tells active, used up, expired and revoked apart, revoked first', () => {
    expect(inviteStatus(invite, now)).toBe('active')
    expect(inviteStatus({ ...invite, uses: 2 }, now)).toBe('used up')
    expect(inviteStatus(invite, new Date('2026-12-02T00:00:00Z'))).toBe('expired')
    expect(inviteStatus({ ...invite, revoked: true, uses: 2 }, now)).toBe('revoked')
  })
})
