import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { AppRouter } from '@/app/router'
import * as certificates from '@/test/certificate-answers'
import { fakeApi, learnerMe, type FakeAnswer } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'
import * as answers from '@/test/server-answers'

afterEach(() => vi.unstubAllGlobals())

const slow = { timeout: 20_000 }
const hourAgo = new Date(Date.now() - 3_600_000).toISOString()
const member = { ...learnerMe, id: answers.userId, organisation: { id: 'o1', name: 'Riverside Plant Training' } }

function openBenchmarks(me: object, benchmarks: FakeAnswer = { body: certificates.benchmarks() }) {
  const fetchMock = fakeApi({
    'GET /api/me': { body: me },
    [`GET /api/users/${answers.userId}/xr-sessions`]: { body: [answers.sessionSummary({ startedAt: hourAgo, endedAt: hourAgo })] },
    'GET /api/training-modules': { body: answers.modules() },
    'GET /api/trade-categories': { body: answers.trades() },
    'GET /api/ai-learning/refreshers': { body: answers.refreshers() },
    'GET /api/analytics/benchmarks': benchmarks,
  })
  renderWithApp(<AppRouter />, '/analytics')
  return fetchMock
}

async function benchmarksTab() {
  await userEvent.setup().click(await screen.findByRole('tab', { name: 'Benchmarks' }, slow))
  return screen.getByRole('tabpanel', { name: 'Benchmarks' })
}

const row = (panel: HTMLElement, metric: string) =>
  within(panel)
    .getByRole('rowheader', { name: metric })
    .closest('tr')!

describe('the Benchmarks tab', { timeout: 30_000 }, () => {
  it("holds an organisation member's figures against their organisation's learners, not a sample", async () => {
    const fetchMock = openBenchmarks(member, { body: { ...certificates.benchmarks(), learners: 3, passRate: null } })
    const panel = await benchmarksTab()
    expect(await within(panel).findByText(/^Reference: your organisation's learners \(3\)/)).toBeInTheDocument()
    expect(fetchMock).toHaveBeenCalledWith('/api/analytics/benchmarks?period=28d', { credentials: 'include' })
    expect(within(panel).queryByText(/no cohort data/)).not.toBeInTheDocument()
    expect(within(panel).queryByText('Sample data')).not.toBeInTheDocument()
    expect(within(panel).getByRole('columnheader', { name: 'Your organisation' })).toBeInTheDocument()
    expect(row(panel, 'Safety %')).toHaveTextContent('Safety %100100')
    expect(row(panel, 'Pass rate %')).toHaveTextContent('Pass rate %100no data')
  })

  it('keeps the labelled sample for a visitor outside an organisation, and asks nothing of the server', async () => {
    const fetchMock = openBenchmarks({ ...member, organisation: null })
    const panel = await benchmarksTab()
    expect(within(panel).getByText(/there is no cohort data to compare against yet/)).toBeInTheDocument()
    expect(within(panel).getByText('Sample data')).toBeInTheDocument()
    expect(within(panel).getByRole('columnheader', { name: 'Reference (sample)' })).toBeInTheDocument()
    expect(fetchMock).not.toHaveBeenCalledWith(expect.stringContaining('/api/analytics/benchmarks'), expect.anything())
  })

  it("says when the organisation's figures could not be loaded", async () => {
    openBenchmarks(member, { status: 500, body: { message: 'internal error' } })
    const panel = await benchmarksTab()
    expect(await within(panel).findByRole('alert')).toHaveTextContent("Could not load your organisation's figures.")
    expect(row(panel, 'Hours / week')).toHaveTextContent(/no data$/)
  })
})
