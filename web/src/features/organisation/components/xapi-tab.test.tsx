import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { fakeApi } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'
import { XAPITab, checkCredentialForm } from './xapi-tab'

afterEach(() => vi.unstubAllGlobals())

const live = { id: 'c1', name: 'Moodle', key: 'K'.repeat(20), canRead: true, canWrite: false, createdAt: '2026-11-24T10:00:00Z', revokedAt: null }
const revoked = { ...live, id: 'c0', name: 'Old player', key: 'R'.repeat(20), canWrite: true, revokedAt: '2026-11-24T11:00:00Z' }
const endpoint = 'https://lrs.example/xapi/'

describe('checkCredentialForm', () => {
  it.each([
    ['OK', { name: ' Moodle ', canRead: true, canWrite: false }, null],
    ['EmptyName', { name: '  ', canRead: true, canWrite: true }, 'name'],
    ['LongName', { name: 'é'.repeat(81), canRead: true, canWrite: true }, 'name'],
    ['NoScope', { name: 'Moodle', canRead: false, canWrite: false }, 'scopes'],
  ] as const)('%s', (_, values, field) => {
    const checked = checkCredentialForm(values)
    if (field === null) expect(checked).toEqual({ ok: true, input: { name: 'Moodle', canRead: true, canWrite: false } })
    else expect(checked.ok ? [] : Object.keys(checked.fields)).toEqual([field])
  })

  it('counts characters as the server does, not UTF-16 units', () => {
    expect(checkCredentialForm({ name: '🔧'.repeat(80), canRead: true, canWrite: true }).ok).toBe(true)
  })
})

describe('XAPITab', () => {
  it('shows the endpoint and each credential with its key, scopes and revocation; Revoke only on live ones', async () => {
    fakeApi({ 'GET /api/organisation/xapi/credentials': { body: { endpoint, credentials: [live, revoked] } } })
    renderWithApp(<XAPITab />)
    expect(await screen.findByDisplayValue(endpoint)).toBeInTheDocument()
    const list = screen.getByRole('list', { name: 'xAPI credentials' })
    const [first, second] = within(list).getAllByRole('listitem')
    expect(within(first).getByText('Moodle')).toBeInTheDocument()
    expect(within(first).getByText('K'.repeat(20))).toBeInTheDocument()
    expect(within(first).getByText('Read only')).toBeInTheDocument()
    expect(within(first).getByRole('button', { name: /Revoke Moodle/ })).toBeInTheDocument()
    expect(within(second).getByText('Revoked')).toBeInTheDocument()
    expect(within(second).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument()
  })

  it('creates a credential and shows its secret once, with the warning', async () => {
    const user = userEvent.setup()
    let sent: unknown = null
    fakeApi({
      'GET /api/organisation/xapi/credentials': { body: { endpoint, credentials: [] } },
      'POST /api/organisation/xapi/credentials': ({ body }) => {
        sent = JSON.parse(body ?? 'null')
        return { status: 201, body: { credential: { ...live, canWrite: true }, secret: 'the-secret-shown-once' } }
      },
    })
    renderWithApp(<XAPITab />)
    await user.type(await screen.findByLabelText(/^Name/), 'Moodle')
    await user.click(screen.getByRole('button', { name: 'Create credential' }))
    const shown = await screen.findByTestId('new-xapi-credential')
    expect(sent).toEqual({ name: 'Moodle', canRead: true, canWrite: true })
    expect(within(shown).getByDisplayValue('the-secret-shown-once')).toBeInTheDocument()
    expect(within(shown).getByText(/will not be shown again/)).toBeInTheDocument()
    expect(within(shown).getByRole('button', { name: 'Copy secret' })).toBeInTheDocument()
    await user.click(within(shown).getByRole('button', { name: 'I have copied it' }))
    expect(screen.queryByDisplayValue('the-secret-shown-once')).not.toBeInTheDocument()
  })

  it('refuses a credential without a scope before asking the server', async () => {
    const user = userEvent.setup()
    const fetchMock = fakeApi({ 'GET /api/organisation/xapi/credentials': { body: { endpoint, credentials: [] } } })
    renderWithApp(<XAPITab />)
    await user.type(await screen.findByLabelText(/^Name/), 'Moodle')
    await user.click(screen.getByLabelText('Read statements and documents'))
    await user.click(screen.getByLabelText('Write statements and documents'))
    await user.click(screen.getByRole('button', { name: 'Create credential' }))
    // Shown under the checkboxes, described by their group, and read out in the form's alert.
    const group = await screen.findByRole('group', { name: 'Allowed to' })
    await waitFor(() => expect(group).toHaveAccessibleDescription('Choose read, write or both.'))
    expect(within(screen.getByRole('form', { name: 'Create an xAPI credential' })).getByRole('alert')).toHaveTextContent('Choose read, write or both.')
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false)
  })

  it('revokes only after the confirmation', async () => {
    const user = userEvent.setup()
    const fetchMock = fakeApi({
      'GET /api/organisation/xapi/credentials': { body: { endpoint, credentials: [live] } },
      'DELETE /api/organisation/xapi/credentials/c1': { status: 204 },
    })
    renderWithApp(<XAPITab />)
    await user.click(await screen.findByRole('button', { name: /Revoke Moodle/ }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText(/cannot be undone/)).toBeInTheDocument()
    const deletes = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE').length
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(deletes()).toBe(0)
    await user.click(screen.getByRole('button', { name: /Revoke Moodle/ }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Revoke credential' }))
    await waitFor(() => expect(deletes()).toBe(1))
    expect(await screen.findByText(/Moodle is revoked/)).toBeInTheDocument()
  })
})
