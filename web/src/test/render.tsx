import type { ReactElement } from 'react'
import { render } from '@testing-library/react'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { Providers } from '@/app/providers'
import { createQueryClient } from '@/lib/api'

// jsdom has no layout, so no ResizeObserver; Radix's checkbox measures itself with one.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver

/** Renders ui inside the app's providers and a memory router at path; history tells where it navigated. */
export function renderWithApp(ui: ReactElement, path = '/') {
  const location = memoryLocation({ path, record: true })
  const client = createQueryClient()
  const result = render(
    <Providers client={client}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        {ui}
      </Router>
    </Providers>,
  )
  return { ...result, client, history: location.history, navigate: location.navigate }
}
