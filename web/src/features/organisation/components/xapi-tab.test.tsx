import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { fakeApi } from '@/test/fake-api'
import { unconfiguredForwarding as unconfigured } from '@/test/xapi-answers'
import { renderWithApp } from '@/test/render'
import { XAPITab, checkCredentialForm, checkForwardingForm } from './xapi-tab'

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

const failing = {
  ...unconfigured,
  configured: true,
  endpoint: 'https://lrs.example.org/xapi/',
  key: 'fwd-key',
  version: '2.0.0',
  queueLength: 1234,
  forwardedThrough: '2026-11-24T10:00:00Z',
  lastError: 'the external LRS answered 401 Unauthorized: the xAPI key or secret is wrong',
  lastErrorAt: '2026-11-24T10:05:00Z',
  lastSuccessAt: '2026-11-24T10:01:00Z',
  nextAttemptAt: '2026-11-24T10:10:00Z',
}

describe('checkForwardingForm', () => {
  const good = { endpoint: ' https://lrs.example.org/xapi ', key: 'k', secret: 's', version: '2.0.0' as const }
  it.each([
    ['OK', good, undefined, null],
    ['KeepSecret', { ...good, secret: '' }, failing, null],
    ['NoSecretFirstTime', { ...good, secret: '' }, undefined, 'secret'],
    ['NoSecretNewEndpoint', { ...good, endpoint: 'https://other.example/xapi/', secret: '' }, failing, 'secret'],
    ['NoEndpoint', { ...good, endpoint: '' }, undefined, 'endpoint'],
    ['FTP', { ...good, endpoint: 'ftp://lrs.example.org/' }, undefined, 'endpoint'],
    ['UserInfo', { ...good, endpoint: 'https://u:p@lrs.example.org/' }, undefined, 'endpoint'],
    ['Query', { ...good, endpoint: 'https://lrs.example.org/xapi/?x=1' }, undefined, 'endpoint'],
    ['NoKey', { ...good, key: ' ' }, undefined, 'key'],
    ['ColonKey', { ...good, key: 'a:b' }, undefined, 'key'],
    ['LongSecret', { ...good, secret: 's'.repeat(201) }, undefined, 'secret'],
  ] as const)('%s', (_, values, current, field) => {
    const checked = checkForwardingForm(values, current && { ...current, key: 'k' })
    if (field === null) {
      expect(checked.ok).toBe(true)
      if (checked.ok) expect(checked.input.endpoint).toBe('https://lrs.example.org/xapi/')
    } else expect(checked.ok ? [] : Object.keys(checked.fields)).toEqual([field])
  })

  it('leaves the secret out to keep the stored one', () => {
    const checked = checkForwardingForm({ endpoint: failing.endpoint, key: failing.key, secret: '', version: '2.0.0' }, failing)
    expect(checked).toEqual({ ok: true, input: { endpoint: failing.endpoint, key: failing.key, version: '2.0.0' } })
  })
})

describe('Forward to an external LRS', () => {
  const credentials = { 'GET /api/organisation/xapi/credentials': { body: { endpoint, credentials: [] } } }

  it('sets forwarding up and shows its status', async () => {
    const user = userEvent.setup()
    let sent: unknown = null
    fakeApi({
      ...credentials,
      'GET /api/organisation/xapi/forwarding': { body: unconfigured },
      'PUT /api/organisation/xapi/forwarding': ({ body }) => {
        sent = JSON.parse(body ?? 'null')
        return { body: { ...failing, lastError: '', lastErrorAt: null, version: '1.0.3', queueLength: 7, forwardedThrough: null, lastSuccessAt: null } }
      },
    })
    renderWithApp(<XAPITab />)
    expect(await screen.findByText('Statements are not forwarded anywhere.')).toBeInTheDocument()
    const form = screen.getByRole('form', { name: 'External LRS' })
    await user.type(within(form).getByLabelText(/^Endpoint/), 'https://lrs.example.org/xapi')
    await user.type(within(form).getByLabelText(/^Key/), 'fwd-key')
    await user.type(within(form).getByLabelText(/^Secret/), 'fwd-secret')
    await user.click(within(form).getByLabelText('1.0.3'))
    await user.click(within(form).getByRole('button', { name: 'Start forwarding' }))
    const status = await screen.findByRole('region', { name: 'Forwarding status' })
    expect(sent).toEqual({ endpoint: 'https://lrs.example.org/xapi/', key: 'fwd-key', secret: 'fwd-secret', version: '1.0.3' })
    expect(within(status).getByTestId('forwarding-queue')).toHaveTextContent('7 statements')
    expect(within(status).getByText('Forwarding')).toBeInTheDocument()
    expect(within(form).getByLabelText(/^Secret/)).toHaveValue('')
  })

  it('shows the queue, the last error and pauses', async () => {
    const user = userEvent.setup()
    const fetchMock = fakeApi({
      ...credentials,
      'GET /api/organisation/xapi/forwarding': { body: failing },
      'POST /api/organisation/xapi/forwarding/pause': { body: { ...failing, paused: true } },
    })
    renderWithApp(<XAPITab />)
    const status = await screen.findByRole('region', { name: 'Forwarding status' })
    expect(within(status).getByTestId('forwarding-queue')).toHaveTextContent(/1.?234 statements/)
    expect(within(status).getByText('Failing')).toBeInTheDocument()
    expect(within(status).getAllByRole('alert').some((a) => a.textContent?.includes('401 Unauthorized: the xAPI key or secret is wrong'))).toBe(true)
    expect(within(status).getByText('Next attempt')).toBeInTheDocument()
    await user.click(within(status).getByRole('button', { name: 'Pause forwarding' }))
    expect(await within(status).findByRole('button', { name: 'Resume forwarding' })).toBeInTheDocument()
    expect(within(status).getByText('Paused')).toBeInTheDocument()
    expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/organisation/xapi/forwarding/pause' && init?.method === 'POST')).toBe(true)
  })

  it("shows the server's refusal under its field", async () => {
    const user = userEvent.setup()
    fakeApi({
      ...credentials,
      'GET /api/organisation/xapi/forwarding': { body: unconfigured },
      'PUT /api/organisation/xapi/forwarding': { status: 400, body: { message: 'key must not contain a colon (HTTP Basic cannot send it)' } },
    })
    renderWithApp(<XAPITab />)
    const form = await screen.findByRole('form', { name: 'External LRS' })
    await user.type(within(form).getByLabelText(/^Endpoint/), 'https://lrs.example.org/xapi/')
    await user.type(within(form).getByLabelText(/^Key/), 'k')
    await user.type(within(form).getByLabelText(/^Secret/), 's')
    await user.click(within(form).getByRole('button', { name: 'Start forwarding' }))
    await waitFor(() => expect(within(form).getByLabelText(/^Key/)).toHaveAccessibleDescription(/must not contain a colon/))
  })

  it('stops only after the confirmation', async () => {
    const user = userEvent.setup()
    const fetchMock = fakeApi({
      ...credentials,
      'GET /api/organisation/xapi/forwarding': { body: failing },
      'DELETE /api/organisation/xapi/forwarding': { status: 204 },
    })
    renderWithApp(<XAPITab />)
    const status = await screen.findByRole('region', { name: 'Forwarding status' })
    await user.click(within(status).getByRole('button', { name: 'Stop forwarding' }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText(/starts over from your organisation’s first statement/)).toBeInTheDocument()
    const deletes = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE').length
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(deletes()).toBe(0)
    await user.click(within(status).getByRole('button', { name: 'Stop forwarding' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Stop forwarding' }))
    await waitFor(() => expect(deletes()).toBe(1))
  })
})
