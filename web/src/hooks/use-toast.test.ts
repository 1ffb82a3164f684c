// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, renderHook } from '@testing-library/react'
import { reducer, resetToastsForTests, toast, TOAST_LIMIT, TOAST_REMOVE_DELAY_MS, useToast } from '@/hooks/use-toast'

beforeEach(() => {
  vi.useFakeTimers()
  act(() => resetToastsForTests())
})
afterEach(() => {
  act(() => resetToastsForTests())
  vi.useRealTimers()
})

describe('toast store', () => {
  it('shows at most one notification', () => {
    expect(TOAST_LIMIT).toBe(1)
    const { result } = renderHook(() => useToast())
    act(() => {
      toast({ title: 'First' })
      toast({ title: 'Second' })
      toast({ title: 'Third', variant: 'destructive' })
    })
    expect(result.current.toasts).toHaveLength(1)
  })

  it('replaces the shown notification with the new one', () => {
    const { result } = renderHook(() => useToast())
    act(() => {
      toast({ title: 'Saved', description: 'Your preferences were saved.' })
    })
    expect(result.current.toasts[0].title).toBe('Saved')
    act(() => {
      toast({ title: 'Request failed', description: '500: internal error', variant: 'destructive' })
    })
    expect(result.current.toasts).toHaveLength(1)
    expect(result.current.toasts[0]).toMatchObject({ title: 'Request failed', variant: 'destructive', open: true })
  })

  it('keeps a dismissed notification for 1,000,000 ms, then removes it', () => {
    const { result } = renderHook(() => useToast())
    let handle: ReturnType<typeof toast> | undefined
    act(() => {
      handle = toast({ title: 'Bye' })
    })
    act(() => handle?.dismiss())
    expect(result.current.toasts[0].open).toBe(false)
    act(() => vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1))
    expect(result.current.toasts).toHaveLength(1)
    act(() => vi.advanceTimersByTime(1))
    expect(result.current.toasts).toHaveLength(0)
  })

  it('closing through Radix (onOpenChange false) dismisses it', () => {
    const { result } = renderHook(() => useToast())
    act(() => {
      toast({ title: 'Swiped' })
    })
    act(() => result.current.toasts[0].onOpenChange?.(false))
    expect(result.current.toasts[0].open).toBe(false)
  })

  it('reducer puts the newest first and cuts to the limit', () => {
    const state = reducer({ toasts: [{ id: '1', title: 'old' }] }, { type: 'ADD_TOAST', toast: { id: '2', title: 'new' } })
    expect(state.toasts.map((t) => t.id)).toEqual(['2'])
  })
})
