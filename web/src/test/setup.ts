import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

afterEach(() => {
  cleanup()
})

// jsdom has no layout, so it does not implement scrolling; the router scrolls to the top on navigation.
window.scrollTo = (() => {}) as typeof window.scrollTo

// Pages load lazily; on a busy 2-core CI machine the first import of a page
// can take longer than Testing Library's default 1 s wait.
configure({ asyncUtilTimeout: 5000 })
