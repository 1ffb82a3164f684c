import { describe, expect, it } from 'vitest'
import { competenciesSchema } from '@/api/certificates'
import * as answers from '@/test/competency-answers'
import { historyEvents, programmeGroups, revokeFormSchema, revokeInput, signOffFormSchema, signOffFormValues, signOffInput, unsignedIndexes } from './competencies'

const data = () => competenciesSchema.parse(answers.competencies())

describe('programmeGroups', () => {
  it("puts the programmes the learner has begun first, in the catalog's order, each with its modules", () => {
    const groups = programmeGroups(data())
    expect(groups.map((g) => [g.name, g.active])).toEqual([
      ['Electrical programme', true],
      ['Plumbing programme', true],
      ['HVAC programme', false],
    ])
    expect(groups[0].modules.map((m) => m.moduleId)).toEqual(['electrical-lockout-tagout', 'electrical-meter-basics'])
    expect(groups[0].passed).toBe(1)
  })

  it('keeps a module of no listed programme, in a group of its own after the programmes', () => {
    const d = data()
    d.modules.push({ ...d.modules[0], moduleId: 'stray', tradeId: 'gone' })
    const groups = programmeGroups(d)
    expect(groups.map((g) => g.name)).toEqual(['Electrical programme', 'Plumbing programme', 'Other modules', 'HVAC programme'])
    expect(groups[2]).toMatchObject({ programme: null, active: true, modules: [{ moduleId: 'stray' }] })
  })

  it('counts a programme as begun by a certificate or a sign-off even without a pass on record', () => {
    const d = data()
    d.modules = d.modules.filter((m) => m.tradeId !== 'plumbing')
    expect(programmeGroups(d).find((g) => g.name === 'Plumbing programme')?.active).toBe(true)
  })
})

it('unsignedIndexes: the competencies still to sign off', () => {
  expect(unsignedIndexes(data().modules[0])).toEqual([1, 2, 3])
})

describe('historyEvents', () => {
  it('makes each revocation an event of its own, and orders all of them newest first', () => {
    const events = historyEvents(data().history)
    expect(events.map((e) => [e.kind, e.record.competency, e.at])).toEqual([
      ['signed', 0, '2026-11-25T09:30:00Z'],
      ['revoked', 1, '2026-11-24T12:00:00Z'],
      ['signed', 1, '2026-11-24T10:00:00Z'],
      ['signed', 0, '2026-11-24T04:48:18.563137648Z'],
    ])
  })

  it("reads one sign-off of several competencies in the module's order", () => {
    const [record] = data().history.filter((r) => !r.revokedAt && r.moduleId === 'electrical-lockout-tagout')
    const later = { ...record, id: 'a', competency: 3 }
    const earlier = { ...record, id: 'z', competency: 1 }
    expect(historyEvents([later, earlier]).map((e) => e.record.competency)).toEqual([1, 3])
  })

  it('puts a revocation before the sign-off it undid when both share an instant', () => {
    const [record] = data().history.filter((r) => r.revokedAt)
    const same = { ...record, revokedAt: record.signedAt }
    expect(historyEvents([same]).map((e) => e.kind)).toEqual(['revoked', 'signed'])
  })
})

describe('the sign-off form', () => {
  const problems = (values: unknown) => {
    const result = signOffFormSchema.safeParse(values)
    return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]))
  }

  it('starts with every competency not yet signed off checked, no practical check, no note', () => {
    expect(signOffFormValues([1, 3])).toEqual({ competencies: [1, 3], practical: false, note: '' })
  })

  it('needs a note with a practical check, and says why', () => {
    expect(problems({ competencies: [1], practical: true, note: '   ' })).toEqual({ note: 'A practical check needs a note: say what you checked on the shop floor.' })
    expect(problems({ competencies: [1], practical: true, note: 'Isolated the feeder at the bench' })).toEqual({})
    expect(problems({ competencies: [1], practical: false, note: '' })).toEqual({})
  })

  it('shows every problem at once: nothing chosen and a note over 1,000 characters (counted as the server counts, in characters)', () => {
    expect(problems({ competencies: [], practical: false, note: 'x'.repeat(1001) })).toEqual({
      competencies: 'Choose at least one competency to sign off.',
      note: 'The note must be at most 1000 characters.',
    })
    // 1,000 emoji are 2,000 UTF-16 units but 1,000 characters.
    expect(problems({ competencies: [0], practical: false, note: '🔧'.repeat(1000) })).toEqual({})
  })

  it('sends the trimmed note and the competencies in the order of the module', () => {
    const values = signOffFormSchema.parse({ competencies: [3, 1], practical: true, note: '  Checked the lock  ' })
    expect(signOffInput('m', values)).toEqual({ moduleId: 'm', competencies: [1, 3], practical: true, note: 'Checked the lock' })
  })
})

describe('the revoke form', () => {
  it('needs a reason', () => {
    const result = revokeFormSchema.safeParse({ note: '  ' })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0].message).toMatch(/^Give the reason/)
    expect(revokeInput('m', 2, revokeFormSchema.parse({ note: ' Failed the retest ' }))).toEqual({ moduleId: 'm', competencies: [2], note: 'Failed the retest' })
  })
})
