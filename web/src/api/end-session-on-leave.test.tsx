import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, waitFor } from '@testing-library/react'
import { renderWithApp } from '@/test/render'
import { useEndSessionOnLeave, type LeftSession } from './xr-sessions'

const left: LeftSession = {
  id: 's-1',
  end: { endedAt: '2026-12-07T08:00:00.000Z', duration: 90, interactionData: { interactions: [], safetyChecks: [] }, extra: { moduleId: 'm-1', sessionType: 'desktop' } },
}

function Session({ leave }: { leave: () => LeftSession | null }) {
  useEndSessionOnLeave(leave)
  return null
}

/** fetch answering a PATCH with the ended record (and the app's own reads with nothing); it returns the PATCHes. */
function stubFetch() {
  const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
    const body = init?.method === 'PATCH' ? { id: 's-1', userId: 'u-1', startedAt: '2026-12-07T07:58:30.000Z', ...JSON.parse(String(init.body)) } : {}
    return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } })
  })
  vi.stubGlobal('fetch', fetchMock)
  return () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH')
}

afterEach(() => vi.unstubAllGlobals())

describe('useEndSessionOnLeave', () => {
  it.each([
    ['leaving for another page', (r: ReturnType<typeof renderWithApp>) => r.unmount()],
    ['closing or reloading the tab', () => window.dispatchEvent(new Event('pagehide'))],
  ])('ends the running session on %s, with keepalive so that the end outlives the page', async (_, how) => {
    const patches = stubFetch()
    let running: LeftSession | null = left
    const leave = vi.fn(() => {
      const s = running
      running = null
      return s
    })
    const r = renderWithApp(<Session leave={leave} />)
    act(() => how(r))
    await waitFor(() => expect(patches()).toHaveLength(1))
    const [url, init] = patches()[0]
    expect(url).toBe('/api/xr-sessions/s-1')
    expect(init).toMatchObject({ method: 'PATCH', keepalive: true, credentials: 'include' })
    expect(JSON.parse(String(init?.body))).toEqual({
      moduleId: 'm-1',
      sessionType: 'desktop',
      endedAt: '2026-12-07T08:00:00.000Z',
      duration: 90,
      interactionData: { interactions: [], safetyChecks: [] },
      completionStatus: 'completed',
    })
    // Both ways out happen when the tab closes on the page: the session ends once.
    r.unmount()
    window.dispatchEvent(new Event('pagehide'))
    expect(patches()).toHaveLength(1)
    expect(leave).toHaveBeenCalled()
  })

  it('sends nothing when no session runs', () => {
    const patches = stubFetch()
    const r = renderWithApp(<Session leave={() => null} />)
    window.dispatchEvent(new Event('pagehide'))
    r.unmount()
    expect(patches()).toEqual([])
  })
})
