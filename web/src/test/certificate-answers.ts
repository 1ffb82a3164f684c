/**
 * Answers of the competencies and certificates API as bin/journeyman sent
 * them (captured after an instructor signed off the plumbing programme),
 * trimmed to a few items. Each is a function so a test can change its copy.
 */

export const learnerId = 'fa285da2345d2e89d1716e6c58487ae1'
export const certificateId = '9dd9bbe55e188a32327c68f9f4acbcb8'
export const code = 'JXR-84JR-F7WQ-JSPQ'

export const certificateContent = () => ({
  code,
  learner: 'Lena Learner',
  programme: 'Plumbing programme',
  organisation: 'Riverside Plant Training',
  signedBy: 'Ivan Instructor',
  issuedAt: '2026-11-24T04:48:18.60782622Z',
  competencies: [
    {
      module: 'Locating and Isolating a Water Leak',
      objective: 'Locate fixture stops, branch valves, the main shutoff and the meter or curb stop',
      achievedAt: '2026-11-24T04:48:18.563137648Z',
      signedBy: 'Ivan Instructor',
      practical: true,
    },
    {
      module: 'Soldering Copper Water Lines',
      objective: 'Cut, ream and clean tube and fitting to bright metal',
      achievedAt: '2026-11-24T04:48:18.571891983Z',
      signedBy: 'Ivan Instructor',
      practical: false,
    },
  ],
})

export const storedCertificate = (extra: Record<string, unknown> = {}) => ({
  id: certificateId,
  learnerId,
  programmeId: 'plumbing',
  certificate: certificateContent(),
  revokedAt: null,
  revokedReason: '',
  ...extra,
})

export const revokedCertificate = () =>
  storedCertificate({
    revokedAt: '2026-11-25T09:00:00Z',
    revokedReason: 'A competency it certifies was revoked: Solder joints failed the pressure test',
  })

export const verification = () => ({ status: 'valid', revokedAt: null, certificate: certificateContent() })

export const revokedVerification = () => ({ status: 'revoked', revokedAt: '2026-11-25T09:00:00Z', certificate: certificateContent() })

export const verifyInvalid = () => ({
  status: 400,
  body: { message: '"hello" is not a certificate code: a code reads JXR- and three groups of four letters and digits' },
})

export const verifyUnknown = () => ({
  status: 404,
  body: { message: 'no certificate has the code JXR-0000-0000-0000: check it against the printed certificate' },
})

export const certificateNotFound = () => ({ status: 404, body: { message: 'no certificate has this code or id' } })

const signOff = () => ({
  id: '274636b481b1c3ec515829b6e0eaf1f0',
  moduleId: 'plumbing-leak-isolation',
  competency: 0,
  objective: 'Locate fixture stops, branch valves, the main shutoff and the meter or curb stop',
  evidenceSessionId: '1f370cd9-50a2-4cb5-8aa9-478e2e1e4df8',
  practical: true,
  note: 'Checked at the bench',
  signedBy: { id: '1014b4ba7562450a1a1cc4eeb86a11b0', name: 'Ivan Instructor' },
  signedAt: '2026-11-24T04:48:18.563137648Z',
  revokedBy: null,
  revokedAt: null,
  revokeNote: '',
})

export const competencies = () => ({
  programmes: [
    { id: 'electrical', name: 'Electrical programme', total: 25, held: 0, certificate: null },
    { id: 'plumbing', name: 'Plumbing programme', total: 20, held: 20, certificate: storedCertificate() },
    { id: 'hvac', name: 'HVAC programme', total: 19, held: 4, certificate: null },
  ],
  modules: [
    {
      moduleId: 'plumbing-leak-isolation',
      title: 'Locating and Isolating a Water Leak',
      tradeId: 'plumbing',
      evidence: { sessionId: '1f370cd9-50a2-4cb5-8aa9-478e2e1e4df8', safetyScore: 100, endedAt: '2026-11-24T04:48:15Z' },
      competencies: [{ index: 0, objective: 'Locate fixture stops, branch valves, the main shutoff and the meter or curb stop', signOff: signOff() }],
    },
    {
      moduleId: 'welding-fcaw-3g-groove',
      title: 'FCAW Vertical-Up Groove Welds for the 3G Bend Test',
      tradeId: 'welding',
      evidence: null,
      competencies: [{ index: 0, objective: 'Set wire feed speed, voltage and shielding gas flow for E71T-1 wire', signOff: null }],
    },
  ],
  history: [signOff()],
  certificates: [storedCertificate()],
})

export const benchmarks = () => ({ learners: 1, hoursPerWeek: 0, averageSafety: 100, passRate: 100, modulesPerMonth: 5.4 })
