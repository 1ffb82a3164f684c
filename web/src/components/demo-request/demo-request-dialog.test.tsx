import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent, { type UserEvent } from '@testing-library/user-event'
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

async function openAndFill(user: UserEvent, email = 'ada@example.com') {
  await user.click(screen.getByRole('button', { name: 'Request Demo' }))
  await user.type(screen.getByLabelText('Your name'), '  Ada ')
  await user.type(screen.getByLabelText('Work email'), email)
  await user.type(screen.getByLabelText('Organisation'), 'JATC')
  await user.type(screen.getByLabelText('Message'), 'Show us the welding booth.')
}

const sentBody = (fetchMock: ReturnType<typeof vi.fn>) => JSON.parse((fetchMock.mock.calls[0][1] as RequestInit).body as string)

describe('DemoRequestButton', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('shows what is wrong with each field and sends nothing', async () => {
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    const user = userEvent.setup()
    renderButton()
    await user.click(screen.getByRole('button', { name: 'Request Demo' }))
    expect(screen.getByRole('dialog', { name: 'Request a Welding Demo' })).toBeInTheDocument()
    expect(screen.getByLabelText('Area of interest (optional)')).toHaveValue('welding')
    await user.type(screen.getByLabelText('Work email'), 'nope')
    await user.type(screen.getByLabelText('Message'), 'Too short')
    await user.click(screen.getByRole('button', { name: 'Send request' }))

    expect(await screen.findByText('Name is required.')).toBeInTheDocument()
    expect(screen.getByText('Email must be an address like name@example.com.')).toBeInTheDocument()
    expect(screen.getByText('Organisation is required.')).toBeInTheDocument()
    expect(screen.getByText('Message must be at least 10 characters.')).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent('4 fields need attention')
    const name = screen.getByLabelText('Your name')
    expect(name).toHaveAttribute('aria-invalid', 'true')
    expect(name).toHaveAccessibleDescription('Name is required.')
    expect(name).toHaveFocus()
    expect(screen.getByLabelText('Message')).toHaveAccessibleDescription(
      'What would you like to see? At least 10 characters. Message must be at least 10 characters.',
    )
    expect(screen.getByLabelText('Area of interest (optional)')).not.toHaveAttribute('aria-invalid')
    expect(fetchMock).not.toHaveBeenCalled()

    await user.type(name, 'A')
    expect(screen.queryByText('Name is required.')).not.toBeInTheDocument()
    expect(name).not.toHaveAttribute('aria-invalid')
    expect(screen.getByText('Organisation is required.')).toBeInTheDocument()
  })

  it("puts the server's 400 under the field it names", async () => {
    const fetchMock = vi.fn().mockResolvedValue(answer(400, { message: 'email: must be an address like name@example.com' }))
    vi.stubGlobal('fetch', fetchMock)
    const user = userEvent.setup()
    renderButton()
    // Passes the form's own check; only the server's address parser rejects it.
    await openAndFill(user, 'ada@example..com')
    await user.click(screen.getByRole('button', { name: 'Send request' }))

    expect(await screen.findByText('Email must be an address like name@example.com.')).toBeInTheDocument()
    const email = screen.getByLabelText('Work email')
    expect(email).toHaveAttribute('aria-invalid', 'true')
    expect(email).toHaveFocus()
    expect(screen.getByLabelText('Your name')).not.toHaveAttribute('aria-invalid')
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    const [url, init] = fetchMock.mock.calls[0]
    expect(url).toBe('/api/demo-requests')
    expect(init).toMatchObject({ method: 'POST', credentials: 'include' })

    await user.type(email, 'x')
    expect(screen.queryByText('Email must be an address like name@example.com.')).not.toBeInTheDocument()
  })

  it('thanks the visitor once the request is stored', async () => {
    const fetchMock = vi.fn().mockResolvedValue(
      answer(201, {
        id: 'abc',
        name: 'Ada',
        email: 'ada@example.com',
        organisation: 'JATC',
        message: 'Show us the welding booth.',
        interest: 'welding',
        createdAt: '2026-03-02T09:30:00Z',
      }),
    )
    vi.stubGlobal('fetch', fetchMock)
    const user = userEvent.setup()
    renderButton()
    await openAndFill(user)
    await user.click(screen.getByRole('button', { name: 'Send request' }))
    expect(await screen.findByRole('dialog', { name: 'Request received' })).toHaveTextContent('ada@example.com')
    expect(sentBody(fetchMock)).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      organisation: 'JATC',
      message: 'Show us the welding booth.',
      interest: 'welding',
    })
  })

  it('shows a rate limit as a form message', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(answer(429, { message: 'you have sent 5 demo requests in the last hour' })))
    const user = userEvent.setup()
    renderButton()
    await openAndFill(user)
    await user.click(screen.getByRole('button', { name: 'Send request' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('You have sent 5 demo requests in the last hour')
  })
})
