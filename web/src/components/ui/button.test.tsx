import { describe, expect, it, vi } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Button } from './button'

describe('Button unavailable', () => {
  it('keeps focus, says it is unavailable and ignores presses by mouse and keyboard', async () => {
    const onClick = vi.fn()
    render(
      <Button unavailable onClick={onClick}>
        Saving…
      </Button>,
    )
    const button = screen.getByRole('button', { name: 'Saving…' })
    expect(button).toHaveAttribute('aria-disabled', 'true')
    expect(button).not.toBeDisabled()
    const user = userEvent.setup({ pointerEventsCheck: 0 })
    await user.click(button)
    button.focus()
    await user.keyboard('{Enter}')
    await user.keyboard(' ')
    expect(button).toHaveFocus()
    expect(onClick).not.toHaveBeenCalled()
  })

  it('does not submit its form, by its press or by Enter in a field', async () => {
    const onSubmit = vi.fn((e: React.FormEvent) => e.preventDefault())
    const { rerender } = render(
      <form onSubmit={onSubmit}>
        <input aria-label="Name" />
        <Button type="submit" unavailable>
          Save
        </Button>
      </form>,
    )
    const user = userEvent.setup({ pointerEventsCheck: 0 })
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ada{Enter}')
    expect(onSubmit).not.toHaveBeenCalled()

    // Available again, the same presses submit.
    rerender(
      <form onSubmit={onSubmit}>
        <input aria-label="Name" />
        <Button type="submit">Save</Button>
      </form>,
    )
    expect(screen.getByRole('button', { name: 'Save' })).not.toHaveAttribute('aria-disabled')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await user.type(screen.getByRole('textbox', { name: 'Name' }), '{Enter}')
    expect(onSubmit).toHaveBeenCalledTimes(2)
  })

  it('passes clicks on when available', async () => {
    const onClick = vi.fn()
    render(<Button onClick={onClick}>Go</Button>)
    await userEvent.click(screen.getByRole('button', { name: 'Go' }))
    expect(onClick).toHaveBeenCalledOnce()
  })
})
