import { z } from 'zod'
import type { Competencies, ModuleCompetencies, ProgrammeProgress, SignOffRecord } from '@/api/certificates'
import { MAX_NOTE, type RevokeInput, type SignOffInput } from '@/api/sign-offs'

export type ModuleCompetency = ModuleCompetencies['competencies'][number]

/** A programme with its modules, as the competencies tab groups them. */
export interface ProgrammeGroup {
  /** null for modules of no programme the answer lists (kept, so none goes missing). */
  programme: ProgrammeProgress | null
  name: string
  modules: ModuleCompetencies[]
  /** Modules with a verified pass. */
  passed: number
  /** Something has happened here (a pass, a sign-off, a certificate): shown first and open. */
  active: boolean
}

/** Something has happened in a module: a verified pass, or a sign-off. */
export const moduleBegun = (m: ModuleCompetencies) => m.evidence !== null || m.competencies.some((c) => c.signOff !== null)

/**
 * The modules grouped by programme, in the catalog's order, except that the
 * programmes the learner has begun come first: those are the ones an
 * instructor opens the tab for.
 */
export function programmeGroups(data: Pick<Competencies, 'programmes' | 'modules'>): ProgrammeGroup[] {
  const known = new Set(data.programmes.map((p) => p.id))
  const group = (programme: ProgrammeProgress | null, name: string, modules: ModuleCompetencies[]): ProgrammeGroup => ({
    programme,
    name,
    modules,
    passed: modules.filter((m) => m.evidence !== null).length,
    active: modules.some(moduleBegun) || (programme !== null && (programme.held > 0 || programme.certificate !== null)),
  })
  const groups = data.programmes.map((p) =>
    group(
      p,
      p.name,
      data.modules.filter((m) => m.tradeId === p.id),
    ),
  )
  const orphans = data.modules.filter((m) => !known.has(m.tradeId))
  if (orphans.length > 0) groups.push(group(null, 'Other modules', orphans))
  // Array.prototype.sort is stable: within each half the catalog's order stays.
  return groups.sort((a, b) => Number(b.active) - Number(a.active))
}

/** The competencies of a module still to sign off, by index. */
export function unsignedIndexes(m: ModuleCompetencies): number[] {
  return m.competencies.filter((c) => c.signOff === null).map((c) => c.index)
}

/** A sign-off or a revocation, as one line of the history. */
export interface HistoryEvent {
  kind: 'signed' | 'revoked'
  at: string
  record: SignOffRecord
}

/**
 * Every sign-off and every revocation, newest first. The server lists
 * sign-offs oldest first with their revocation on the same record; here a
 * revocation is an event of its own, at its own time. At the same instant a
 * revocation comes before (is newer than) the sign-off it undid.
 */
export function historyEvents(history: readonly SignOffRecord[]): HistoryEvent[] {
  const events: HistoryEvent[] = []
  for (const record of history) {
    events.push({ kind: 'signed', at: record.signedAt, record })
    if (record.revokedAt) events.push({ kind: 'revoked', at: record.revokedAt, record })
  }
  const time = (e: HistoryEvent) => new Date(e.at).getTime() || 0
  // One sign-off of several competencies shares an instant: those read in the module's order.
  return events.sort(
    (a, b) =>
      time(b) - time(a) ||
      (a.kind === b.kind ? 0 : a.kind === 'revoked' ? -1 : 1) ||
      a.record.moduleId.localeCompare(b.record.moduleId) ||
      a.record.competency - b.record.competency,
  )
}

// Characters, not UTF-16 units: the server counts runes.
const length = (s: string) => [...s].length

const tooLong = (what: string) => `${what} must be at most ${MAX_NOTE} characters.`

/**
 * The sign-off form, checked as the server will check it
 * (portal.SignOff.Validate) so the obvious mistakes need no round trip. All
 * rules are in one refinement so that every problem shows at once, not one
 * per submit. The server stays the judge of the rest (evidence, a
 * competency signed off meanwhile).
 */
export const signOffFormSchema = z
  .object({
    competencies: z.array(z.number().int()),
    practical: z.boolean(),
    // The server trims the note before checking it.
    note: z.string().trim(),
  })
  .superRefine((v, ctx) => {
    if (v.competencies.length === 0) ctx.addIssue({ code: 'custom', path: ['competencies'], message: 'Choose at least one competency to sign off.' })
    if (v.practical && v.note === '') ctx.addIssue({ code: 'custom', path: ['note'], message: 'A practical check needs a note: say what you checked on the shop floor.' })
    if (length(v.note) > MAX_NOTE) ctx.addIssue({ code: 'custom', path: ['note'], message: tooLong('The note') })
  })
export type SignOffFormValues = z.input<typeof signOffFormSchema>

/** What the sign-off form starts with: every competency not yet signed off, checked. */
export function signOffFormValues(unsigned: readonly number[]): SignOffFormValues {
  return { competencies: [...unsigned], practical: false, note: '' }
}

/** The request a checked form sends; competencies in the module's order. */
export function signOffInput(moduleId: string, values: z.output<typeof signOffFormSchema>): SignOffInput {
  return { moduleId, competencies: [...values.competencies].sort((a, b) => a - b), practical: values.practical, note: values.note }
}

/** The revoke dialog: the reason is required, as the server requires it. */
export const revokeFormSchema = z.object({
  note: z
    .string()
    .trim()
    .min(1, 'Give the reason: it is kept in the history, and on any certificate this revokes.')
    .refine((note) => length(note) <= MAX_NOTE, tooLong('The reason')),
})
export type RevokeFormValues = z.input<typeof revokeFormSchema>

export function revokeInput(moduleId: string, index: number, values: z.output<typeof revokeFormSchema>): RevokeInput {
  return { moduleId, competencies: [index], note: values.note }
}
