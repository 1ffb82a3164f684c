import { describe, expect, it } from 'vitest'
import { render, screen, within } from '@testing-library/react'
import { ModuleCard, type ModuleCardData } from './module-card'

const module: ModuleCardData = {
  id: 'welding-ppe',
  title: 'Welding PPE and Fume Control',
  description: 'Choose and check the protection a weld needs.',
  difficulty: 'beginner',
  estimatedDuration: 45,
  learningObjectives: ['Pick a lens shade'],
  safetyPoints: ['Never weld without ventilation'],
  categories: ['safety', 'technical', 'hazard-recognition'],
}

describe('ModuleCard', () => {
  it('links each category chip to its page where no category is the page (an industry page)', () => {
    render(<ModuleCard module={module} />)
    const chips = screen.getByRole('list', { name: 'Training categories' })
    expect(within(chips).getAllByRole('link').map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Safety Training', '/training/safety'],
      ['Technical Skills', '/training/technical'],
      ['Hazard Recognition', '/training/hazard-recognition'],
    ])
  })

  it("on a category's page: no chip for it, the others as plain text, and Start the card's only link", () => {
    render(<ModuleCard module={module} currentCategory="safety" />)
    const card = screen.getByTestId('module-card')
    expect(within(card).queryByText('Safety Training')).not.toBeInTheDocument()
    const also = within(card).getByRole('list', { name: 'Also in' })
    expect(within(also).getAllByRole('listitem').map((c) => c.textContent)).toEqual(['Technical Skills', 'Hazard Recognition'])
    expect(within(card).getAllByRole('link').map((l) => l.getAttribute('aria-label'))).toEqual(['Start Welding PPE and Fume Control'])
    // What the card shows besides stays.
    expect(card).toHaveTextContent('Difficulty: Beginner')
    expect(card).toHaveTextContent('Duration: 45 min')
    expect(within(card).getByRole('heading', { level: 3 })).toHaveTextContent(module.title)
  })

  it("shows no chip list on a category's page when the module is in that category only", () => {
    render(<ModuleCard module={{ ...module, categories: ['safety'] }} currentCategory="safety" />)
    expect(screen.queryByRole('list', { name: 'Also in' })).not.toBeInTheDocument()
    expect(screen.queryByText('Also in')).not.toBeInTheDocument()
  })
})
