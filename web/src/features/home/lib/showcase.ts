import { showcasePrograms, type ShowcaseProgram } from '@/content/home'

/** Hash prefix that names a programme: #video-showcase-welding-ar. */
export const PROGRAM_HASH_PREFIX = '#video-showcase-'

/** The programme with this id; an unknown or missing id falls back to the first (spec 000 §4). */
export function resolveProgram(id: string | null | undefined, programs: readonly ShowcaseProgram[] = showcasePrograms): ShowcaseProgram {
  return programs.find((p) => p.id === id) ?? programs[0]
}

/**
 * The programme an address asks for: ?program=<id>, or else
 * #video-showcase-<id>. Null when it names none.
 */
export function programIdFromLocation(search: string, hash: string): string | null {
  const fromQuery = new URLSearchParams(search).get('program')
  if (fromQuery) return fromQuery
  if (hash.startsWith(PROGRAM_HASH_PREFIX) && hash.length > PROGRAM_HASH_PREFIX.length) {
    try {
      return decodeURIComponent(hash.slice(PROGRAM_HASH_PREFIX.length))
    } catch {
      return null
    }
  }
  return null
}
