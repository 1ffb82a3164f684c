import { describe, expect, it } from 'vitest'
import { defaultLearnersParams, pageSummary, readLearnersParams, sortBy, writeLearnersParams } from './learners-query'

describe('the learner table in the address', () => {
  it('reads an empty query string as the defaults, and writes the defaults as nothing', () => {
    expect(readLearnersParams('')).toEqual(defaultLearnersParams)
    expect(writeLearnersParams(defaultLearnersParams)).toBe('')
  })

  it('round-trips every setting', () => {
    const params = { q: 'ann lee', flag: 'refreshersDue' as const, sort: 'sessions' as const, dir: 'desc' as const, limit: 25, offset: 50 }
    expect(readLearnersParams(writeLearnersParams(params))).toEqual(params)
    expect(writeLearnersParams(params)).toBe('q=ann+lee&flag=refreshersDue&sort=sessions&dir=desc&offset=50')
  })

  it('falls back to the defaults for values the server would refuse', () => {
    expect(readLearnersParams('flag=lazy&sort=email&dir=up&offset=-25&limit=1000')).toEqual(defaultLearnersParams)
    expect(readLearnersParams('offset=2.5').offset).toBe(0)
    expect(readLearnersParams(`q=${'x'.repeat(300)}`).q).toHaveLength(254)
    expect(readLearnersParams('q=%20%20bo%20').q).toBe('bo')
  })
})

describe('sortBy', () => {
  it('starts names A to Z and figures largest first, then flips, and goes back to page one', () => {
    const onPage3 = { ...defaultLearnersParams, offset: 50 }
    expect(sortBy(onPage3, 'sessions')).toMatchObject({ sort: 'sessions', dir: 'desc', offset: 0 })
    expect(sortBy(sortBy(onPage3, 'sessions'), 'sessions')).toMatchObject({ sort: 'sessions', dir: 'asc' })
    expect(sortBy(onPage3, 'displayName')).toMatchObject({ sort: 'displayName', dir: 'desc' })
    expect(sortBy({ ...onPage3, sort: 'alerts' }, 'displayName')).toMatchObject({ sort: 'displayName', dir: 'asc' })
  })
})

describe('pageSummary', () => {
  it('says which rows show of how many', () => {
    expect(pageSummary(0, 25, 48)).toBe('Showing 1–25 of 48')
    expect(pageSummary(25, 23, 48)).toBe('Showing 26–48 of 48')
  })
})
