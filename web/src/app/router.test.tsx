import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { Providers } from '@/app/providers'
import { AppRouter } from '@/app/router'
import { createQueryClient } from '@/lib/api'

function renderAt(path: string) {
  const { hook } = memoryLocation({ path })
  return render(
    <Providers client={createQueryClient()}>
      <Router hook={hook}>
        <AppRouter />
      </Router>
    </Providers>,
  )
}

describe('AppRouter', () => {
  it('renders the screen for a path in any case with a trailing slash', async () => {
    renderAt('/XR-Training/')
    expect(await screen.findByRole('heading', { level: 1, name: 'XR Training Center' })).toBeInTheDocument()
    expect(document.title).toBe('XR Training Center | Journeyman XR')
    expect(screen.queryByText('404 Page Not Found')).not.toBeInTheDocument()
  })

  it('renders an industry page from the navigation', async () => {
    renderAt('/industries/hvac')
    expect(await screen.findByRole('heading', { level: 1, name: 'HVAC Training' })).toBeInTheDocument()
  })

  it('renders the 404 page with both texts for an unknown path', async () => {
    renderAt('/no-such-page')
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument()
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeInTheDocument()
    expect(document.title).toBe('404 Page Not Found | Journeyman XR')
  })

  it('renders the 404 page for an unknown industry', async () => {
    renderAt('/industries/astronomy')
    expect(await screen.findByText('Did you forget to add the page to the router?')).toBeInTheDocument()
  })
})
