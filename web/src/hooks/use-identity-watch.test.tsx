import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor } from '@testing-library/react'
import { useMe, type Me } from '@/api/account'
import { adminMe, fakeApi } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'
import { identityChanged, useIdentityWatch } from './use-identity-watch'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function Who() {
  useIdentityWatch()
  const me = useMe()
  return <p>{me.data ? `${me.data.displayName}: ${me.data.role}${me.data.organisation ? ` of ${me.data.organisation.name}` : ''}` : '…'}</p>
}

const showAgain = () => act(() => void document.dispatchEvent(new Event('visibilitychange')))

describe('useIdentityWatch', () => {
  it('resets the page to the identity the server answers when it is shown again', async () => {
    let me: object = adminMe
    const fetchMock = fakeApi({ 'GET /api/me': () => ({ body: me }) })
    renderWithApp(<Who />)
    expect(await screen.findByText('Ada Lovelace: admin of Northside Training Centre')).toBeInTheDocument()

    // Removed from the organisation elsewhere.
    me = { ...adminMe, role: 'learner', organisation: null }
    showAgain()
    expect(await screen.findByText('Ada Lovelace: learner')).toBeInTheDocument()
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/me')).toHaveLength(2)
  })

  it('asks at most once in a few seconds', async () => {
    const fetchMock = fakeApi({ 'GET /api/me': { body: adminMe } })
    renderWithApp(<Who />)
    await screen.findByText(/Ada Lovelace/)
    const asked = () => fetchMock.mock.calls.filter(([url]) => url === '/api/me').length
    showAgain()
    await waitFor(() => expect(asked()).toBe(2))
    showAgain()
    act(() => void window.dispatchEvent(new Event('focus')))
    expect(asked()).toBe(2)
  })

  it('does not ask while the page is hidden', async () => {
    const fetchMock = fakeApi({ 'GET /api/me': { body: adminMe } })
    renderWithApp(<Who />)
    await screen.findByText(/Ada Lovelace/)
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden')
    showAgain()
    act(() => void window.dispatchEvent(new Event('focus')))
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/me')).toHaveLength(1)
  })

  it('takes a new display name without resetting the page', async () => {
    let me: object = adminMe
    fakeApi({ 'GET /api/me': () => ({ body: me }) })
    renderWithApp(<Who />)
    await screen.findByText(/Ada Lovelace/)
    me = { ...adminMe, displayName: 'Ada King' }
    showAgain()
    expect(await screen.findByText('Ada King: admin of Northside Training Centre')).toBeInTheDocument()
  })
})

describe('identityChanged', () => {
  const ada = adminMe as Me
  it.each([
    ['the same answer', ada, false],
    ['a new display name only', { ...ada, displayName: 'Ada L.' }, false],
    ['another person', { ...ada, id: 'b2' }, true],
    ['another role', { ...ada, role: 'instructor' as const }, true],
    ['no organisation', { ...ada, organisation: null }, true],
  ])('%s: %s', (_, now, want) => {
    expect(identityChanged(ada, now)).toBe(want)
  })
})
