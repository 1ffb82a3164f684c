import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClientProvider } from '@tanstack/react-query'
import { createQueryClient } from '@/lib/api'
import { DemoRequestButton } from './demo-request-dialog'

function renderButton() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <DemoRequestButton interest="welding" title="Request a Welding Demo">
        Request Demo
      </DemoRequestButton>
    </QueryClientProvider>,
  )
}

const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

describe('DemoRequestButton', () => {
  afterEach(() => vi.unstubAllGlobals())

  it("posts the form and shows each field's error from the server's message", async () => {
    const fetchMock = vi.fn().mockResolvedValue(answer(400, { message: 'name: is required; email: must be an address like name@example.com' }))
    vi.stubGlobal('fetch', fetchMock)
    const user = userEvent.setup()
    renderButton()
    await user.click(screen.getByRole('button', { name: 'Request Demo' }))
    expect(screen.getByRole('dialog', { name: 'Request a Welding Demo' })).toBeInTheDocument()
    expect(screen.getByLabelText('Area of interest (optional)')).toHaveValue('welding')
    await user.type(screen.getByLabelText('Work email'), 'nope')
    await user.click(screen.getByRole('button', { name: 'Send request' }))

    expect(await screen.findByText('Name is required.')).toBeInTheDocument()
    expect(screen.getByText('Email must be an address like name@example.com.')).toBeInTheDocument()
    expect(screen.getByLabelText('Your name')).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByLabelText('Your name')).toHaveFocus()
    expect(screen.getByLabelText('Organisation')).not.toHaveAttribute('aria-invalid')
    const [url, init] = fetchMock.mock.calls[0]
    expect(url).toBe('/api/demo-requests')
    expect(init).toMatchObject({ method: 'POST', credentials: 'include' })
    expect(JSON.parse(init.body)).toEqual({ name: '', email: 'nope', organisation: '', message: '', interest: 'welding' })

    await user.type(screen.getByLabelText('Your name'), 'A')
    expect(screen.queryByText('Name is required.')).not.toBeInTheDocument()
  })

  it('thanks the visitor once the request is stored', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(
        answer(201, {
          id: 'abc',
          name: 'Ada',
          email: 'ada@example.com',
          organisation: 'JATC',
          message: 'Show us the welding booth.',
          interest: 'welding',
          createdAt: '2026-03-02T09:30:00Z',
        }),
      ),
    )
    const user = userEvent.setup()
    renderButton()
    await user.click(screen.getByRole('button', { name: 'Request Demo' }))
    await user.click(screen.getByRole('button', { name: 'Send request' }))
    expect(await screen.findByRole('dialog', { name: 'Request received' })).toHaveTextContent('ada@example.com')
  })

  it('shows a rate limit as a form message', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(answer(429, { message: 'you have sent 5 demo requests in the last hour' })))
    const user = userEvent.setup()
    renderButton()
    await user.click(screen.getByRole('button', { name: 'Request Demo' }))
    await user.click(screen.getByRole('button', { name: 'Send request' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('You have sent 5 demo requests in the last hour')
  })
})
