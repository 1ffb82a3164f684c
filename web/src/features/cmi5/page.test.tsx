import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { adminMe, fakeApi, learnerMe } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'
import Cmi5Page from './page'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const memberMe = { ...learnerMe, organisation: { id: 'o1', name: 'Northside Training Centre' } }
const au = { id: 'au1', publisherId: 'https://example.com/au', title: 'Reading a weld', description: '', launchMethod: 'AnyWindow', moveOn: 'CompletedAndPassed', masteryScore: 0.6 }
const course = { id: 'c1', courseId: 'https://example.com/c', title: 'Weld inspection', description: 'One lesson', hasContent: true, createdAt: '2026-11-24T10:00:00Z', aus: [au] }
const launchURL = 'http://app.test/cmi5/content/c1/au/index.html?endpoint=x'

describe('Cmi5Page', () => {
  it('lists the courses with their lessons to a member, who launches one in a new window; no import for them', async () => {
    const user = userEvent.setup()
    fakeApi({
      'GET /api/me': { body: memberMe },
      'GET /api/cmi5/courses': { body: { courses: [course] } },
      'POST /api/cmi5/aus/au1/launch': { body: { url: launchURL, launchMethod: 'AnyWindow', registration: 'r', sessionId: 's' } },
    })
    const win = { location: { href: '' }, opener: {} as unknown, close: vi.fn() }
    const open = vi.spyOn(window, 'open').mockReturnValue(win as unknown as Window)
    renderWithApp(<Cmi5Page />, '/cmi5')
    const lessons = await screen.findByRole('list', { name: 'Lessons of Weld inspection' })
    expect(within(lessons).getByText('Complete and pass it · pass mark 60%')).toBeInTheDocument()
    expect(screen.queryByRole('form', { name: 'Import a course' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete course' })).not.toBeInTheDocument()

    await user.click(within(lessons).getByRole('button', { name: 'Launch Reading a weld' }))
    // Opened at the click, before the answer, so that no pop-up blocker stops it.
    expect(open).toHaveBeenCalledWith('', '_blank')
    await waitFor(() => expect(win.location.href).toBe(launchURL))
    expect(win.opener).toBeNull()
  })

  it('lets staff import a zipped package, sent as application/zip', async () => {
    const user = userEvent.setup()
    const fetchMock = fakeApi({
      'GET /api/me': { body: adminMe },
      'GET /api/cmi5/courses': { body: { courses: [] } },
      'POST /api/cmi5/courses': { status: 201, body: course },
    })
    renderWithApp(<Cmi5Page />, '/cmi5')
    const form = await screen.findByRole('form', { name: 'Import a course' })
    await user.upload(within(form).getByLabelText(/Import a cmi5 package/), new File(['PK'], 'weld.zip', { type: 'application/zip' }))
    await user.click(within(form).getByRole('button', { name: /^Import$/ }))
    expect(await within(form).findByText('Imported “Weld inspection” with 1 lesson.')).toBeInTheDocument()
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')
    expect(new Headers(post?.[1]?.headers).get('Content-Type')).toBe('application/zip')
  })

  it('tells someone outside any organisation that courses belong to one', async () => {
    fakeApi({ 'GET /api/me': { body: learnerMe } })
    renderWithApp(<Cmi5Page />, '/cmi5')
    expect(await screen.findByText(/you are not part of one/)).toBeInTheDocument()
  })
})
