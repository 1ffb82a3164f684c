import type { ReactNode } from 'react'
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { queryClient as defaultClient } from '@/lib/api'
import { AppearanceProvider } from '@/lib/appearance'
import { Toaster } from '@/components/toaster'

/**
 * Everything app-wide: the query client with the spec's defaults, the
 * appearance the learner's personalization applies (colour scheme, text
 * size on <html>), and the toaster.
 */
export function Providers({ children, client = defaultClient }: { children: ReactNode; client?: QueryClient }) {
  return (
    <QueryClientProvider client={client}>
      <AppearanceProvider>
        {children}
        <Toaster />
      </AppearanceProvider>
    </QueryClientProvider>
  )
}
