import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { fakeApi, guestMe } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'
import * as answers from '@/test/server-answers'
import { stepTitles } from './lib/wizard'
import PersonalizationPage from './page'

afterEach(() => vi.unstubAllGlobals())

function server(saved: Record<string, unknown> = answers.personalization()) {
  return fakeApi({
    'GET /api/me': { body: guestMe },
    'GET /api/personalization': { body: saved },
    'POST /api/personalization/save': ({ body }) => ({ body: { ...saved, ...JSON.parse(body ?? '{}') } }),
  })
}

const saves = (fetchMock: ReturnType<typeof server>) =>
  fetchMock.mock.calls.filter(([url, init]) => String(url).endsWith('/api/personalization/save') && init?.method === 'POST').map(([, init]) => JSON.parse(String(init?.body)))

describe('personalization wizard', () => {
  it('asks for a choice this wizard does not offer before moving on, and sends nothing', async () => {
    // A level from a newer server: none of the cards is chosen.
    const fetchMock = server({ ...answers.personalization(), experienceLevel: 'master' })
    const user = userEvent.setup()
    renderWithApp(<PersonalizationPage />)
    const group = await screen.findByRole('radiogroup', { name: 'Experience level' })
    await user.click(screen.getByRole('button', { name: 'Next' }))

    expect(await within(group).findByText('Choose your experience level.')).toBeInTheDocument()
    expect(group).toHaveAccessibleDescription('Choose your experience level.')
    expect(screen.getByText('Step 1 of 7')).toBeInTheDocument()
    const beginner = within(group).getByRole('radio', { name: /^Beginner/ })
    expect(beginner).toHaveFocus()
    expect(group).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByRole('radiogroup', { name: 'Primary trade' })).not.toHaveAttribute('aria-invalid')

    await user.click(within(group).getByRole('radio', { name: /^Advanced/ }))
    expect(screen.queryByText('Choose your experience level.')).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Next' }))
    expect(await screen.findByText('Step 2 of 7')).toBeInTheDocument()
    expect(saves(fetchMock)).toEqual([])
  })

  it('saves the whole profile on step 7 and confirms it', async () => {
    const fetchMock = server()
    const user = userEvent.setup()
    renderWithApp(<PersonalizationPage />)
    const next = () => user.click(screen.getByRole('button', { name: 'Next' }))
    await user.click(await screen.findByRole('radio', { name: 'Welding' }))
    await next()
    await user.click(await screen.findByRole('radio', { name: '45 minutes' }))
    await next()
    await next()
    await next()
    await user.click(await screen.findByRole('checkbox', { name: 'Magnification' }))
    await next()
    await user.click(await screen.findByRole('checkbox', { name: 'Extended timeouts' }))
    await user.click(screen.getByRole('checkbox', { name: 'Simplified controls' }))
    await next()
    await user.click(await screen.findByRole('radio', { name: 'Large' }))
    await next()

    expect(await screen.findByRole('heading', { name: 'Your training is personalized' })).toBeInTheDocument()
    const { saved: _saved, updatedAt: _updatedAt, applied: _applied, ...profile } = answers.personalization()
    expect(saves(fetchMock)).toEqual([
      {
        ...profile,
        primaryTrade: 'welding',
        preferredSessionLength: 45,
        visualAssistance: ['magnification'],
        motorAssistance: ['simplified-controls', 'extended-timeouts'],
        fontSize: 'large',
      },
    ])
    expect(screen.getByText('Primary trade').nextSibling).toHaveTextContent('Welding')
    expect(screen.getByText('Motor assistance').nextSibling).toHaveTextContent('Simplified controls, Extended timeouts')

    await user.click(screen.getByRole('button', { name: 'Modify Preferences' }))
    expect(await screen.findByText('Step 1 of 7')).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: 'Welding' })).toBeChecked()
  })

  it('moves focus to each new step’s heading, which says the step, and to the confirmation after the save', async () => {
    server()
    const user = userEvent.setup()
    renderWithApp(<PersonalizationPage />)
    await screen.findByRole('radiogroup', { name: 'Experience level' })
    // Nothing is taken from the learner on arrival.
    expect(document.activeElement).toBe(document.body)
    const heading = () => document.activeElement as HTMLElement

    await user.click(screen.getByRole('radio', { name: 'Welding' }))
    await user.keyboard('{Tab}')
    expect(screen.getByRole('button', { name: 'Next' })).toHaveFocus()
    await user.keyboard('{Enter}')
    await screen.findByText('Step 2 of 7')
    expect(heading()).toBe(screen.getByRole('heading', { name: 'Step 2 of 7: How you learn' }))
    expect(heading()).toHaveAttribute('tabindex', '-1')

    // Previous back to step 1 disables Previous: focus goes to the heading, not to the page.
    await user.click(screen.getByRole('button', { name: 'Previous' }))
    expect(heading()).toBe(await screen.findByRole('heading', { name: 'Step 1 of 7: Experience and trade' }))
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled()

    for (let step = 2; step <= 7; step++) {
      await user.click(screen.getByRole('button', { name: 'Next' }))
      await waitFor(() => expect(heading()).toHaveAccessibleName(`Step ${step} of 7: ${stepTitles[step - 1]}`))
    }
    await user.click(screen.getByRole('button', { name: 'Next' }))
    const confirmation = await screen.findByRole('heading', { name: 'Your training is personalized' })
    await waitFor(() => expect(confirmation).toHaveFocus())

    await user.click(screen.getByRole('button', { name: 'Modify Preferences' }))
    await waitFor(() => expect(heading()).toHaveAccessibleName('Step 1 of 7: Experience and trade'))
  })

  it('keeps focus on Next while the last step saves, and after a failed save', async () => {
    let answer: (a: { status: number; body: unknown }) => void = () => {}
    const pending = new Promise<{ status: number; body: unknown }>((resolve) => (answer = resolve))
    const fetchMock = fakeApi({
      'GET /api/me': { body: guestMe },
      'GET /api/personalization': { body: answers.personalization() },
    })
    const fakeFetch = fetchMock.getMockImplementation()!
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).endsWith('/api/personalization/save')) {
        const a = await pending
        return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'Content-Type': 'application/json' } })
      }
      return fakeFetch(input, init)
    })
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const user = userEvent.setup()
    renderWithApp(<PersonalizationPage />)
    await user.click(await screen.findByRole('radio', { name: 'Welding' }))
    for (let step = 2; step <= 7; step++) {
      await user.click(screen.getByRole('button', { name: 'Next' }))
      await screen.findByText(`Step ${step} of 7`)
    }
    screen.getByRole('button', { name: 'Next' }).focus()
    await user.keyboard('{Enter}')
    const saving = await screen.findByRole('button', { name: 'Saving...' })
    expect(saving).toHaveFocus()
    expect(saving).toHaveAttribute('aria-disabled', 'true')
    // Pressed again while it saves, it sends nothing more.
    await user.keyboard('{Enter}')
    answer({ status: 500, body: { message: 'boom' } })
    const next = await screen.findByRole('button', { name: 'Next' })
    expect(next).toHaveFocus()
    expect(next).not.toHaveAttribute('aria-disabled')
    expect(screen.getByText('Step 7 of 7')).toBeInTheDocument()
    expect(fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/api/personalization/save'))).toHaveLength(1)
  })
})
