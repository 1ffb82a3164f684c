import { learnerFlags, learnerSortKeys, type LearnerFlag, type LearnerSortKey, type LearnersParams, type SortDirection } from '@/api/portal'

/** Learners a page shows: the server's default page. */
export const LEARNERS_PAGE_SIZE = 25
/** The server refuses longer searches (portal.MaxQuery). */
export const MAX_QUERY_LENGTH = 254

export const defaultLearnersParams: LearnersParams = { q: '', flag: null, sort: 'displayName', dir: 'asc', limit: LEARNERS_PAGE_SIZE, offset: 0 }

/** The "Show" filter's choices, "All learners" first. */
export const flagOptions: { value: LearnerFlag | ''; label: string }[] = [
  { value: '', label: 'All learners' },
  { value: 'refreshersDue', label: 'Refreshers due' },
  { value: 'unverified', label: 'Unverified sessions' },
  { value: 'alerts', label: 'Raised alerts' },
  { value: 'inactive', label: 'Inactive 30 days' },
]

const isFlag = (v: string | null): v is LearnerFlag => (learnerFlags as readonly (string | null)[]).includes(v)
const isSortKey = (v: string | null): v is LearnerSortKey => (learnerSortKeys as readonly (string | null)[]).includes(v)

/**
 * The table's state from the address's query string. Anything that is not a
 * value the server accepts (an edited or old link) falls back to the
 * default, so the page asks for a list it can get rather than a 400.
 */
export function readLearnersParams(search: string): LearnersParams {
  const s = new URLSearchParams(search)
  const offset = Number(s.get('offset'))
  const dir = s.get('dir')
  const sort = s.get('sort')
  const flag = s.get('flag')
  return {
    q: (s.get('q') ?? '').trim().slice(0, MAX_QUERY_LENGTH),
    flag: isFlag(flag) ? flag : null,
    sort: isSortKey(sort) ? sort : defaultLearnersParams.sort,
    dir: dir === 'asc' || dir === 'desc' ? dir : defaultLearnersParams.dir,
    limit: LEARNERS_PAGE_SIZE,
    offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
  }
}

/** The query string for the table's state, defaults left out so a plain link stays plain. */
export function writeLearnersParams(params: LearnersParams): string {
  const s = new URLSearchParams()
  if (params.q) s.set('q', params.q)
  if (params.flag) s.set('flag', params.flag)
  if (params.sort !== defaultLearnersParams.sort) s.set('sort', params.sort)
  if (params.dir !== defaultLearnersParams.dir) s.set('dir', params.dir)
  if (params.offset > 0) s.set('offset', String(params.offset))
  return s.toString()
}

/**
 * The direction a column sorts in when chosen: names A to Z, figures
 * largest first (the learners with the most alerts, the latest activity),
 * since that is what an instructor looks for.
 */
export function firstDirection(key: LearnerSortKey): SortDirection {
  return key === 'displayName' ? 'asc' : 'desc'
}

/** The state after a column header is pressed: the current column flips, another starts in its first direction. Back to page one. */
export function sortBy(params: LearnersParams, key: LearnerSortKey): LearnersParams {
  const dir = params.sort === key ? (params.dir === 'asc' ? 'desc' : 'asc') : firstDirection(key)
  return { ...params, sort: key, dir, offset: 0 }
}

/** "Showing 1–25 of 48"; "Showing 0 of 0" never shows, an empty list says so instead. */
export function pageSummary(offset: number, shown: number, total: number): string {
  return `Showing ${offset + 1}–${offset + shown} of ${total}`
}
