/**
 * A learner's competencies as the portal's tests see them: the shape of
 * GET /api/users/{userId}/competencies (internal/server/competencies.go, the
 * shape test/certificate-answers.ts captured from bin/journeyman), for the
 * portal's learner of test/portal-answers.ts, with a module part signed off
 * and one revocation. Each is a function so a test can change its copy.
 */
import { storedCertificate } from './certificate-answers'
import { learnerId, sessionId } from './portal-answers'

export { learnerId, sessionId }

export const instructor = { id: 'i1i1i1i1i1i1i1i1i1i1i1i1i1i1i1i1', name: 'Ivan Instructor' }

export const lockoutObjectives = [
  'Identify every energy source feeding a piece of equipment from drawings and field inspection',
  'Apply the six-step lockout sequence: notify, shut down, isolate, lock and tag, release stored energy, verify',
  'Perform a live-dead-live absence-of-voltage test with a properly rated meter',
  'Explain group lockout and the rules for removing a lock at shift change',
]

export const signOffRecord = (extra: Record<string, unknown> = {}) => ({
  id: 'so-lockout-0',
  moduleId: 'electrical-lockout-tagout',
  competency: 0,
  objective: lockoutObjectives[0],
  evidenceSessionId: sessionId,
  practical: true,
  note: 'Traced the feeders on the panel schedule with me',
  signedBy: instructor,
  signedAt: '2026-11-25T09:30:00Z',
  revokedBy: null,
  revokedAt: null,
  revokeNote: '',
  ...extra,
})

export const revokedRecord = () =>
  signOffRecord({
    id: 'so-lockout-1-old',
    competency: 1,
    objective: lockoutObjectives[1],
    practical: false,
    note: '',
    signedAt: '2026-11-24T10:00:00Z',
    revokedBy: { id: 'a1', name: 'Ada Admin' },
    revokedAt: '2026-11-24T12:00:00Z',
    revokeNote: 'Signed off on the wrong learner',
  })

export const plumbingRecord = () =>
  signOffRecord({
    id: 'so-plumbing-0',
    moduleId: 'plumbing-leak-isolation',
    objective: 'Locate fixture stops, branch valves, the main shutoff and the meter or curb stop',
    note: 'Checked at the bench',
    signedAt: '2026-11-24T04:48:18.563137648Z',
  })

export const competencies = () => ({
  programmes: [
    { id: 'electrical', name: 'Electrical programme', total: 6, held: 1, certificate: null },
    { id: 'plumbing', name: 'Plumbing programme', total: 1, held: 1, certificate: storedCertificate() },
    { id: 'hvac', name: 'HVAC programme', total: 1, held: 0, certificate: null },
  ],
  modules: [
    {
      moduleId: 'electrical-lockout-tagout',
      title: 'Lockout/Tagout and Establishing an Electrically Safe Work Condition',
      tradeId: 'electrical',
      evidence: { sessionId, safetyScore: 100, endedAt: '2026-11-23T22:31:36Z' },
      competencies: lockoutObjectives.map((objective, index) => ({ index, objective, signOff: index === 0 ? signOffRecord() : null })),
    },
    {
      moduleId: 'electrical-meter-basics',
      title: 'Digital Multimeter Fundamentals',
      tradeId: 'electrical',
      evidence: null,
      competencies: [
        { index: 0, objective: 'Select the correct meter function and range', signOff: null },
        { index: 1, objective: 'Check a meter on a known source before use', signOff: null },
      ],
    },
    {
      moduleId: 'plumbing-leak-isolation',
      title: 'Locating and Isolating a Water Leak',
      tradeId: 'plumbing',
      evidence: { sessionId: '1f370cd9-50a2-4cb5-8aa9-478e2e1e4df8', safetyScore: 92.5, endedAt: '2026-11-24T04:48:15Z' },
      competencies: [{ index: 0, objective: 'Locate fixture stops, branch valves, the main shutoff and the meter or curb stop', signOff: plumbingRecord() }],
    },
    {
      moduleId: 'hvac-refrigerant-recovery',
      title: 'Refrigerant Recovery',
      tradeId: 'hvac',
      evidence: null,
      competencies: [{ index: 0, objective: 'Recover refrigerant to a certified cylinder', signOff: null }],
    },
  ],
  // Oldest first, as the server lists them.
  history: [plumbingRecord(), revokedRecord(), signOffRecord()],
  certificates: [
    storedCertificate(),
    storedCertificate({
      id: 'old-certificate',
      certificate: { ...storedCertificate().certificate, code: 'JXR-0LD0-0LD0-0LD0', issuedAt: '2026-10-01T08:00:00Z' },
      revokedAt: '2026-10-20T08:00:00Z',
      revokedReason: 'A competency it certifies was revoked: Solder joints failed the pressure test',
    }),
  ],
})
