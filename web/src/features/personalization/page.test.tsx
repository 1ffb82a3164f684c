import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { fakeApi, guestMe } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'
import * as answers from '@/test/server-answers'
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
})
