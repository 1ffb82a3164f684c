import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { AppRouter } from '@/app/router'
import { matchRoute } from '@/app/routes'
import * as answers from '@/test/certificate-answers'
import { fakeApi, guestMe, type FakeAnswer } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'

afterEach(() => vi.unstubAllGlobals())

// Lazy pages load on first use; a busy machine takes seconds over the first.
const slow = { timeout: 20_000 }

function server(verify: Record<string, FakeAnswer> = {}) {
  return fakeApi({ 'GET /api/me': { body: guestMe }, ...verify })
}

describe('/verify', { timeout: 30_000 }, () => {
  it('keeps the code as typed in the route', () => {
    expect(matchRoute('/Verify/jxr-84jr-f7wq-jspq').params).toEqual({ code: 'jxr-84jr-f7wq-jspq' })
    expect(matchRoute('/verify').route.pattern).toBe('/verify')
  })

  it('tells a signed-out visitor the certificate is genuine and shows it as issued', async () => {
    server({ [`GET /api/verify/${answers.code}`]: { body: answers.verification() } })
    renderWithApp(<AppRouter />, `/verify/${answers.code}`)
    expect(await screen.findByRole('heading', { level: 2, name: 'Genuine certificate' }, slow)).toBeInTheDocument()
    const doc = screen.getByTestId('certificate')
    expect(within(doc).getByRole('heading', { level: 2, name: 'Certificate of Competence' })).toBeInTheDocument()
    expect(within(doc).getByText('Lena Learner')).toBeInTheDocument()
    expect(within(doc).getByTestId('certificate-code')).toHaveTextContent(answers.code)
    expect(within(doc).getByTestId('certificate-verify-url')).toHaveTextContent(`${window.location.origin}/verify/${answers.code}`)
    expect(within(doc).getAllByRole('cell', { name: 'Ivan Instructor' })).toHaveLength(2) // a row per competency
    expect(within(doc).queryByTestId('certificate-revoked')).not.toBeInTheDocument()
    // The form holds the code, to correct or check again.
    expect(screen.getByLabelText('Certificate code')).toHaveValue(answers.code)
  })

  it('says when a certificate was revoked, and marks the document, without the reason', async () => {
    server({ [`GET /api/verify/${answers.code}`]: { body: answers.revokedVerification() } })
    renderWithApp(<AppRouter />, `/verify/${answers.code}`)
    expect(await screen.findByRole('heading', { name: 'This certificate was revoked on 25 November 2026' }, slow)).toBeInTheDocument()
    expect(screen.getByTestId('certificate-revoked')).toHaveTextContent('REVOKED')
    expect(screen.queryByText(/Reason:/)).not.toBeInTheDocument()
  })

  it('asks the server by the code as printed, however it was typed', async () => {
    const fetchMock = server({ [`GET /api/verify/${answers.code}`]: { body: answers.verification() } })
    renderWithApp(<AppRouter />, '/verify/jxr 84jr f7wq jspq')
    expect(await screen.findByRole('heading', { name: 'Genuine certificate' }, slow)).toBeInTheDocument()
    expect(fetchMock).toHaveBeenCalledWith(`/api/verify/${answers.code}`, { credentials: 'include' })
  })

  it("says no certificate has an unknown code, and gives the server's reason for text that is no code", async () => {
    server({ 'GET /api/verify/JXR-0000-0000-0000': answers.verifyUnknown(), 'GET /api/verify/hello': answers.verifyInvalid() })
    const { unmount } = renderWithApp(<AppRouter />, '/verify/JXR-0000-0000-0000')
    expect(await screen.findByRole('heading', { name: 'No certificate has this code' }, slow)).toBeInTheDocument()
    expect(screen.getByText('No certificate has the code JXR-0000-0000-0000: check it against the printed certificate.')).toBeInTheDocument()
    unmount()
    renderWithApp(<AppRouter />, '/verify/hello')
    expect(await screen.findByRole('heading', { name: 'This is not a certificate code' }, slow)).toBeInTheDocument()
    expect(screen.getByText('"hello" is not a certificate code: a code reads JXR- and three groups of four letters and digits.')).toBeInTheDocument()
  })

  it('opens the code typed in the form, as printed; nothing typed is asked for again', async () => {
    const fetchMock = server({ [`GET /api/verify/${answers.code}`]: { body: answers.verification() } })
    const { history } = renderWithApp(<AppRouter />, '/verify')
    const input = await screen.findByLabelText('Certificate code', {}, slow)
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Verify' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Enter the code printed on the certificate.')
    expect(input).toHaveAttribute('aria-invalid', 'true')
    expect(fetchMock).not.toHaveBeenCalledWith(expect.stringContaining('/api/verify'), expect.anything())
    await user.type(input, 'jxr84jrf7wqjspq{Enter}')
    await waitFor(() => expect(history.at(-1)).toBe(`/verify/${answers.code}`))
    expect(await screen.findByRole('heading', { name: 'Genuine certificate' }, slow)).toBeInTheDocument()
  })
})
