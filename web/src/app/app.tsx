import { Providers } from '@/app/providers'
import { Layout } from '@/app/layout'
import { AppRouter } from '@/app/router'

/** The whole app. */
export function App() {
  return (
    <Providers>
      <Layout>
        <AppRouter />
      </Layout>
    </Providers>
  )
}
