import { useRef, useState } from 'react'
import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useFocusAfterRemoval } from './use-focus-after-removal'

/** A list whose Remove takes its row away at once, or fails when `failing` is the row's id. */
function List({ initial, failing }: { initial: string[]; failing?: string }) {
  const [rows, setRows] = useState(initial.map((id) => ({ id })))
  const heading = useRef<HTMLHeadingElement>(null)
  const removal = useFocusAfterRemoval(rows, heading)
  return (
    <>
      <h2 ref={heading} tabIndex={-1}>
        People
      </h2>
      {rows.map((r) => (
        <button
          key={r.id}
          ref={removal.register(r.id)}
          onClick={() => {
            removal.start(r.id)
            if (r.id === failing) removal.cancel()
            else setRows((all) => all.filter((o) => o.id !== r.id))
          }}
        >
          Remove {r.id}
        </button>
      ))}
    </>
  )
}

describe('useFocusAfterRemoval', () => {
  const cases: { name: string; rows: string[]; remove: string[]; focused: string }[] = [
    { name: 'the next row', rows: ['a', 'b', 'c'], remove: ['b'], focused: 'Remove c' },
    { name: 'the previous row when the last left', rows: ['a', 'b', 'c'], remove: ['c'], focused: 'Remove b' },
    { name: 'the fallback when none is left', rows: ['a'], remove: ['a'], focused: 'People' },
    { name: 'the next row again after two removals', rows: ['a', 'b', 'c'], remove: ['a', 'b'], focused: 'Remove c' },
  ]
  it.each(cases)('moves focus to $name', async ({ rows, remove, focused }) => {
    const user = userEvent.setup()
    render(<List initial={rows} />)
    for (const id of remove) await user.click(screen.getByRole('button', { name: `Remove ${id}` }))
    expect(screen.getByText(focused)).toHaveFocus()
  })

  it('leaves focus where it is when the removal failed', async () => {
    const user = userEvent.setup()
    render(<List initial={['a', 'b']} failing="a" />)
    await user.click(screen.getByRole('button', { name: 'Remove a' }))
    expect(screen.getByRole('button', { name: 'Remove a' })).toHaveFocus()
  })
})
