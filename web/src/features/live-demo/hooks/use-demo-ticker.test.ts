// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useDemoTicker } from './use-demo-ticker'

const up = () => 0.99

describe('useDemoTicker', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('holds the initial counters while stopped', () => {
    const { result } = renderHook(() => useDemoTicker(false, up))
    act(() => vi.advanceTimersByTime(10_000))
    expect(result.current.viewers).toBe(847)
  })

  it('ticks every 2 s while running, and holds once stopped', () => {
    const { result, rerender } = renderHook(({ running }) => useDemoTicker(running, up), { initialProps: { running: true } })
    act(() => vi.advanceTimersByTime(1999))
    expect(result.current.viewers).toBe(847)
    act(() => vi.advanceTimersByTime(1))
    expect(result.current.viewers).toBe(848)
    act(() => vi.advanceTimersByTime(4000))
    expect(result.current.viewers).toBe(850)
    rerender({ running: false })
    act(() => vi.advanceTimersByTime(10_000))
    expect(result.current.viewers).toBe(850)
  })

  it('resumes from where it stopped', () => {
    const { result, rerender } = renderHook(({ running }) => useDemoTicker(running, up), { initialProps: { running: true } })
    act(() => vi.advanceTimersByTime(2000))
    rerender({ running: false })
    rerender({ running: true })
    act(() => vi.advanceTimersByTime(2000))
    expect(result.current.viewers).toBe(849)
  })
})
