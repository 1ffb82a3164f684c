import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query'
import { z } from 'zod'
import { loadJSON } from '@/lib/api'

/**
 * A list answer read item by item. An item that does not parse is left out
 * (with a console warning naming the list), so one broken record never
 * costs the page the others. null (a Go nil slice) reads as no items;
 * anything else that is not a list is a broken answer and fails.
 */
export function listOf<T extends z.ZodType>(item: T, what: string) {
  return z
    .array(z.unknown())
    .nullable()
    .transform((raw) => {
      const out: z.output<T>[] = []
      let dropped = 0
      for (const value of raw ?? []) {
        const parsed = item.safeParse(value)
        if (parsed.success) out.push(parsed.data)
        else dropped++
      }
      if (dropped > 0) console.warn(`${what}: left out ${dropped} ${dropped === 1 ? 'item' : 'items'} that could not be read`)
      return out
    })
}

/** A list of strings inside a record: items that are not strings are left out, and a missing or malformed list reads as []. */
export const strings = z
  .array(z.unknown())
  .catch([])
  .transform((items) => items.filter((i): i is string => typeof i === 'string'))

/** A figure that counts as 0 when it is missing or not a finite number (spec 000 §3, 001 §2: "missing values count as 0"). */
export const count = z.number().catch(0)

/** Text that reads as '' when it is missing. */
export const text = z.string().catch('')

/** GETs path (spec 000 §7 data loading) and parses the answer with schema. */
export async function load<T extends z.ZodType>(path: string, schema: T): Promise<z.output<T>> {
  return schema.parse(await loadJSON(path))
}

/**
 * The X-Total-Count of a paged list: every item that matches, not only this
 * page. An answer without a usable one counts what is known so far.
 */
export function totalCount(res: Response, offset: number, pageLength: number): number {
  const total = Number(res.headers.get('X-Total-Count') ?? NaN)
  return Number.isFinite(total) && total >= pageLength ? total : offset + pageLength
}

/** One path segment, escaped. */
export const segment = encodeURIComponent

/** What a page may add to a module's query: narrow the answer with select, hold the query back, or poll. */
export interface ReadOptions<T, R> {
  select?: (data: T) => R
  /** false holds the query back; true leaves it to the module (which waits, say, for the learner to be known). */
  enabled?: boolean
  /** How often the page asks again, in ms, or false (spec 000 §7: only where a page polls). */
  refetchInterval?: number | false
  /** 'always': the page asks again each time it opens, whatever the cache holds. */
  refetchOnMount?: 'always'
}

/** useQuery of a module's query options with a page's ReadOptions. */
export function useRead<T, R, K extends QueryKey>(base: Omit<UseQueryOptions<T, Error, T, K>, 'select'>, { enabled, ...options }: ReadOptions<T, R> = {}) {
  return useQuery<T, Error, R, K>({ ...base, ...options, enabled: enabled === false ? false : base.enabled })
}
