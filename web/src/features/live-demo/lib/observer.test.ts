import { describe, expect, it } from 'vitest'
import { describeInteraction, formatPosition, initialObserverState, KEEP_UPDATES, observe } from './observer'

const msg = (type: string, payload: unknown, sessionId = 's1') => ({ type, payload, sessionId, timestamp: '2026-01-01T00:00:00Z' })

describe('observe', () => {
  it('joined starts watching with the room counts', () => {
    const s = observe(initialObserverState, msg('joined', { role: 'observer', participants: 1, observers: 2 }), 's1')
    expect(s).toMatchObject({ phase: 'watching', participants: 1, observers: 2 })
  })

  it('presence updates the counts', () => {
    let s = observe(initialObserverState, msg('joined', { participants: 1, observers: 1 }), 's1')
    s = observe(s, msg('presence', { participants: 0, observers: 1 }), 's1')
    expect(s).toMatchObject({ participants: 0, observers: 1 })
  })

  it('an update records the position and interactions, newest first', () => {
    let s = observe(initialObserverState, msg('joined', { participants: 1, observers: 1 }), 's1')
    s = observe(s, msg('xr_session_update', { position: { x: 1, y: 1.6, z: -2 }, interactions: [{ action: 'click', objectId: 'disconnect', stepId: 'open' }] }), 's1')
    s = observe(s, msg('xr_session_update', { interactions: [{ action: 'skip' }] }), 's1')
    expect(s.received).toBe(2)
    expect(s.position).toEqual({ x: 1, y: 1.6, z: -2 })
    expect(s.updates.map((u) => u.interactions)).toEqual([['skip'], ['click · disconnect (step open)']])
  })

  it(`keeps the last ${KEEP_UPDATES} updates`, () => {
    let s = initialObserverState
    for (let i = 0; i < KEEP_UPDATES + 3; i++) s = observe(s, msg('xr_session_update', { interactions: [] }), 's1')
    expect(s.updates).toHaveLength(KEEP_UPDATES)
    expect(s.received).toBe(KEEP_UPDATES + 3)
  })

  it('ignores messages of other sessions', () => {
    const s = observe(initialObserverState, msg('xr_session_update', { interactions: [] }, 'other'), 's1')
    expect(s).toBe(initialObserverState)
  })

  it('ignores a malformed position', () => {
    const s = observe(initialObserverState, msg('xr_session_update', { position: { x: 'a', y: 1, z: 2 } }), 's1')
    expect(s.position).toBeUndefined()
    expect(s.received).toBe(1)
  })

  it('an error before joining means not watching', () => {
    const s = observe(initialObserverState, msg('error', { message: 'XR session s1 has ended' }, ''), 's1')
    expect(s).toMatchObject({ phase: 'error', error: 'XR session s1 has ended' })
  })

  it('an error while watching keeps watching', () => {
    let s = observe(initialObserverState, msg('joined', { participants: 1, observers: 1 }), 's1')
    s = observe(s, msg('error', { message: 'rate limited' }, ''), 's1')
    expect(s).toMatchObject({ phase: 'watching', error: 'rate limited' })
  })
})

describe('describeInteraction', () => {
  it.each([
    [{ action: 'grab', objectId: 'lock' }, 'grab · lock'],
    [{}, 'interaction'],
    [null, 'interaction'],
  ])('%j → %s', (i, text) => expect(describeInteraction(i)).toBe(text))
})

describe('formatPosition', () => {
  it('shows metres with two decimals', () => expect(formatPosition({ x: 1, y: 1.6, z: -2.345 })).toBe('(1.00, 1.60, -2.35) m'))
})
