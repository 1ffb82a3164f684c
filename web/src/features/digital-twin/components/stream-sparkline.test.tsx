import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import { StreamSparkline } from './stream-sparkline'

describe('StreamSparkline', () => {
  it('is decorative: hidden from assistive technology, with nothing in it the keyboard can reach', () => {
    const history = [20, 21.5, 21].map((value, i) => ({ value, timestamp: `2026-11-20T08:0${i}:00Z` }))
    render(<StreamSparkline stream={{ id: 's', streamName: 'Temperature', value: 21, unit: '°C', history }} />)
    const chart = screen.getByTestId('stream-sparkline')
    expect(chart).toHaveAttribute('aria-hidden', 'true')
    expect(chart.querySelector('svg')).not.toBeNull()
    expect(chart.querySelectorAll('[tabindex]:not([tabindex="-1"]), a[href], button, input')).toHaveLength(0)
  })
})
