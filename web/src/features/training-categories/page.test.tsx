import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { fakeApi } from '@/test/fake-api'
import { renderWithApp } from '@/test/render'
import TrainingCategoryPage from './page'

afterEach(() => vi.unstubAllGlobals())

const trade = { id: 'welding', name: 'Welding', description: '', certifications: ['AWS D1.1'] }
const base = { tradeId: 'welding', description: 'A module.', difficulty: 'beginner', estimatedDuration: 30, learningObjectives: [], safetyPoints: [], prerequisites: [] }
const modules = [
  { ...base, id: 'w1', title: 'Welding PPE', categories: ['safety', 'technical'] },
  { ...base, id: 'w2', title: 'Hot Work Permits', categories: ['safety'] },
  { ...base, id: 'w3', title: 'Fume Hazards', categories: ['hazard-recognition', 'safety', 'onboarding'] },
  { ...base, id: 'w4', title: 'Bead Technique', categories: ['technical'] },
]

function renderSafety() {
  fakeApi({ 'GET /api/training-modules': { body: modules }, 'GET /api/trade-categories': { body: [trade] } })
  return renderWithApp(<TrainingCategoryPage params={{ category: 'safety' }} />, '/training/safety')
}

describe('/training/{category}', () => {
  it('has no link to itself: the strip names it as the current page, and the cards leave out its chip', async () => {
    renderSafety()
    expect(await screen.findAllByTestId('module-card')).toHaveLength(3)
    expect(screen.queryAllByRole('link', { name: 'Safety Training' })).toEqual([])
    const strip = screen.getByRole('navigation', { name: 'Other training categories' })
    expect(within(strip).getByText('Safety Training')).toHaveAttribute('aria-current', 'page')
    expect(within(strip).getAllByRole('link').map((l) => l.textContent)).toEqual(['Technical Skills', 'Onboarding', 'Teamwork', 'Troubleshooting', 'Hazard Recognition'])
  })

  it('each card is one stop for Tab, its Start link; its other categories are read as text', async () => {
    const user = userEvent.setup()
    renderSafety()
    const cards = await screen.findAllByTestId('module-card')
    expect(cards.map((c) => within(c).getAllByRole('link').length)).toEqual([1, 1, 1])
    expect(within(cards[0]).getByRole('list', { name: 'Also in' })).toHaveTextContent('Technical Skills')
    expect(within(cards[1]).queryByRole('list', { name: 'Also in' })).not.toBeInTheDocument()
    expect(within(cards[2]).getAllByRole('listitem').map((c) => c.textContent)).toContain('Onboarding')

    // From the first Start, Tab goes straight to the next card's Start.
    within(cards[0]).getByRole('link', { name: 'Start Welding PPE' }).focus()
    await user.tab()
    expect(document.activeElement).toBe(within(cards[1]).getByRole('link', { name: 'Start Hot Work Permits' }))
    await user.tab()
    expect(document.activeElement).toBe(within(cards[2]).getByRole('link', { name: 'Start Fume Hazards' }))
  })
})
