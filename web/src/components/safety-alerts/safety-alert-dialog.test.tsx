import { describe, expect, it } from 'vitest'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { SafetyAlertDialog, useSafetyAlerts } from '@/components/safety-alerts'
import { RealtimeClient } from '@/lib/realtime'
import { FakeSocket } from '@/test/fake-socket'


function connectedClient() {
  let socket: FakeSocket | undefined
  const client = new RealtimeClient({
    url: 'ws://test/ws',
    createSocket: () => {
      socket = new FakeSocket()
      return socket as unknown as WebSocket
    },
  })
  client.connect()
  socket!.open()
  let id = 0
  const send = (description: string, alertType = 'general') =>
    socket!.receive({
      type: 'safety_alert',
      timestamp: new Date().toISOString(),
      payload: { id: ++id, alertType, description, displayName: 'Trainer Tess', createdAt: new Date().toISOString() },
    })
  return { client, send }
}

function Host({ client }: { client: RealtimeClient }) {
  const alerts = useSafetyAlerts(client)
  return (
    <>
      <button type="button">Something on the page</button>
      <SafetyAlertDialog alerts={alerts} />
    </>
  )
}

describe('SafetyAlertDialog', () => {
  it('interrupts with an alert dialog that says exactly the spec’s text and holds focus until acknowledged', async () => {
    const user = userEvent.setup()
    const { client, send } = connectedClient()
    render(<Host client={client} />)
    screen.getByRole('button', { name: 'Something on the page' }).focus()
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()

    send('Need assistance', 'help')
    const dialog = await screen.findByRole('alertdialog', { name: 'Safety Alert: Need assistance' })
    expect(within(dialog).getByText('Help alert raised by Trainer Tess', { exact: false })).toBeInTheDocument()
    const ack = within(dialog).getByRole('button', { name: 'Acknowledge' })
    expect(ack).toHaveFocus()
    // It does not fade: still there long after a toast would have gone.
    await act(() => new Promise((r) => setTimeout(r, 50)))
    expect(screen.getByRole('alertdialog')).toBeInTheDocument()

    await user.keyboard('{Enter}')
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Something on the page' })).toHaveFocus()
  })

  it('queues alerts that arrive while one is shown, and shows each in turn', async () => {
    const user = userEvent.setup()
    const { client, send } = connectedClient()
    render(<Host client={client} />)
    send('Emergency stop requested', 'emergency')
    send('Equipment malfunction', 'equipment')
    send('General safety concern')

    let dialog = await screen.findByRole('alertdialog', { name: 'Safety Alert: Emergency stop requested' })
    expect(within(dialog).getByText('2 more safety alerts are waiting.')).toBeInTheDocument()

    await user.click(within(dialog).getByRole('button', { name: 'Acknowledge' }))
    dialog = await screen.findByRole('alertdialog', { name: 'Safety Alert: Equipment malfunction' })
    expect(within(dialog).getByText('1 more safety alert is waiting.')).toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Acknowledge' })).toHaveFocus()

    // Escape acknowledges too, from the keyboard.
    await user.keyboard('{Escape}')
    dialog = await screen.findByRole('alertdialog', { name: 'Safety Alert: General safety concern' })
    expect(within(dialog).queryByText(/more safety alert/)).not.toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Acknowledge' })).toHaveFocus()

    await user.keyboard(' ')
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
  })

  it('is not dismissed by a click outside it', async () => {
    const { client, send } = connectedClient()
    render(<Host client={client} />)
    send('Need assistance')
    await screen.findByRole('alertdialog')
    // The page behind is inert (pointer-events: none), so a user cannot click it; events sent anyway change nothing.
    const behind = screen.getByRole('button', { name: 'Something on the page', hidden: true })
    fireEvent.pointerDown(behind)
    fireEvent.mouseDown(behind)
    fireEvent.click(behind)
    expect(screen.getByRole('alertdialog', { name: 'Safety Alert: Need assistance' })).toBeInTheDocument()
  })
})
