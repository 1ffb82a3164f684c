import { describe, expect, it, vi } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { StepList } from '@/components/xr/step-list'
import type { Scene } from '@/components/xr/types'

const scene: Scene = {
  id: 'lockout',
  title: 'Lockout',
  tradeIds: ['electrical'],
  environment: '',
  objects: [{ id: 'ppe', label: 'Face shield', shape: 'sphere', position: [0, 1, 0], rotation: [0, 0, 0], size: [0.1, 0, 0], color: '#ffffff' }],
  steps: [{ id: 'don-ppe', instruction: 'Wear the face shield', target: 'ppe', action: 'grab', minDurationMs: 3000 }],
  safetyChecks: [],
  passCriteria: { requiredSteps: ['don-ppe'], minSafetyScore: 80 },
}

describe('StepList', () => {
  it('holds the current step until its minimum time has passed, and says so', async () => {
    const user = userEvent.setup()
    const onDo = vi.fn()
    const { rerender } = render(<StepList scene={scene} currentStepId="don-ppe" active finished={false} readyInMs={2100} onDo={onDo} onSkip={() => {}} />)
    const complete = screen.getByRole('button', { name: 'Complete step 1' })
    expect(complete).toHaveAttribute('aria-disabled', 'true')
    expect(complete).toHaveAccessibleDescription('Take a moment with this step: it can be completed in 3 s.')
    await user.click(complete)
    expect(onDo).not.toHaveBeenCalled()
    // Skipping is never held.
    expect(screen.getByRole('button', { name: 'Skip step 1' })).not.toHaveAttribute('aria-disabled')

    rerender(<StepList scene={scene} currentStepId="don-ppe" active finished={false} readyInMs={0} onDo={onDo} onSkip={() => {}} />)
    expect(complete).not.toHaveAttribute('aria-disabled')
    expect(screen.queryByTestId('step-wait')).not.toBeInTheDocument()
    await user.click(complete)
    expect(onDo).toHaveBeenCalledWith('ppe')
  })
})
