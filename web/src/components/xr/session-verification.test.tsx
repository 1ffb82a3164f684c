import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import { SessionVerification } from '@/components/xr/session-verification'

describe('SessionVerification', () => {
  it("lists the server's reasons for an unverified session and what it does not count for", () => {
    render(<SessionVerification verified={false} issues={['Actions were recorded ahead of real time.', 'Steps were recorded out of order.']} />)
    expect(screen.getByText(/Not verified\. It counts for no certification and no completed module\./)).toBeInTheDocument()
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Actions were recorded ahead of real time.', 'Steps were recorded out of order.'])
  })

  it('says a verified session is verified, and nothing for a running one or an older server', () => {
    const { rerender, container } = render(<SessionVerification verified />)
    expect(screen.getByText('Verified')).toBeInTheDocument()
    rerender(<SessionVerification verified={false} issues={[]} />)
    expect(container).toBeEmptyDOMElement()
    rerender(<SessionVerification verified={null} />)
    expect(container).toBeEmptyDOMElement()
  })
})
