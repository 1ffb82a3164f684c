/**
 * The portal's answers in the server's shape (issue 12's contract, as
 * internal/server/portal.go writes it: a cohort's instructor is {id, name}),
 * for the portal's tests; e2e/tests/portal.spec.ts reads the real ones.
 * Each is a function so a test can change its copy freely.
 */

export const cohortId = 'c0ffee00c0ffee00c0ffee00c0ffee00'
export const learnerId = 'b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0'
export const sessionId = '3b3bf0dd-55fb-4574-9ef4-593da737ff61'

export const instructorMe = () => ({
  id: 'i1i1i1i1i1i1i1i1i1i1i1i1i1i1i1i1',
  displayName: 'Ivan Instructor',
  guest: false,
  email: 'ivan@example.com',
  role: 'instructor',
  organisation: { id: 'o1', name: 'Northside Training Centre' },
})

export const cohort = (extra: Record<string, unknown> = {}) => ({
  id: cohortId,
  name: 'Spring 2027',
  instructor: { id: 'i1i1i1i1i1i1i1i1i1i1i1i1i1i1i1i1', name: 'Ivan Instructor' },
  memberCount: 48,
  createdAt: '2026-11-01T09:00:00Z',
  ...extra,
})

export const figures = (extra: Record<string, unknown> = {}) => ({
  id: learnerId,
  displayName: 'Bo Builder',
  email: 'bo@example.com',
  sessions: 12,
  timeSeconds: 3900,
  lastActive: '2026-11-23T22:27:30Z',
  modulesCompleted: 3,
  averageSafetyScore: 87.5,
  alerts: 1,
  refreshersDue: 2,
  unverifiedSessions: 0,
  ...extra,
})

export const cohortLearners = (learners = [figures(), figures({ id: 'l2', displayName: 'Cy Carpenter', email: 'cy@example.com', sessions: 0, timeSeconds: 0, lastActive: null, modulesCompleted: 0, averageSafetyScore: null, alerts: 0, refreshersDue: 0, unverifiedSessions: 0 })], total = 48) => ({
  cohort: cohort(),
  total,
  learners,
})

export const learnerDetail = () => ({
  learner: { id: learnerId, displayName: 'Bo Builder', email: 'bo@example.com', role: 'learner', cohorts: [{ id: cohortId, name: 'Spring 2027' }, { id: 'other', name: 'Evening class' }] },
  figures: figures({ unverifiedSessions: 1 }),
})

export const review = () => ({
  session: {
    id: sessionId,
    moduleId: 'electrical-lockout-tagout',
    moduleTitle: 'Lockout/Tagout and Establishing an Electrically Safe Work Condition',
    sessionType: 'vr',
    deviceType: 'Meta Quest 3',
    startedAt: '2026-11-23T22:27:26Z',
    endedAt: '2026-11-23T22:31:36Z',
    duration: 250,
    completionStatus: 'completed',
    outcome: 'failed',
    safetyScore: 66.7,
    verified: false,
    verificationIssues: ['Step "Test for voltage" was completed in 0.4 s; it takes at least 3 s.'],
  },
  steps: [
    { id: 'notify', instruction: 'Notify affected employees', status: 'completed', startMs: 0, endMs: 20_000, durationMs: 20_000 },
    { id: 'shutdown', instruction: 'Shut down the equipment', status: 'completed', startMs: 20_000, endMs: 50_000, durationMs: 30_000 },
    { id: 'isolate', instruction: 'Open the disconnect', safetyCheckId: 'isolation', status: 'skipped', startMs: 50_000, endMs: 70_000, durationMs: 20_000 },
    { id: 'test', instruction: 'Test for voltage', safetyCheckId: 'verify-dead', status: 'completed', startMs: 70_000, endMs: 102_000, durationMs: 32_000 },
    { id: 'tag', instruction: 'Apply lock and tag', safetyCheckId: 'lock-applied', status: 'missed', startMs: null, endMs: null, durationMs: null },
  ],
  safetyChecks: [
    { id: 'isolation', description: 'Isolate every energy source', status: 'skipped' },
    { id: 'verify-dead', description: 'Verify the absence of voltage', status: 'passed' },
    { id: 'lock-applied', description: 'Apply a personal lock', status: 'skipped' },
  ],
  events: [
    { seq: 0, sessionTime: 19_500, kind: 'click', stepId: 'notify', objectId: 'radio' },
    { seq: 1, sessionTime: 20_000, kind: 'click', stepId: 'notify', objectId: 'radio' },
    { seq: 2, sessionTime: 50_000, kind: 'click', stepId: 'shutdown', objectId: 'stop-button' },
    { seq: 3, sessionTime: 70_000, kind: 'skip', stepId: 'isolate', objectId: '' },
    { seq: 4, sessionTime: 102_000, kind: 'grab', stepId: 'test', objectId: 'meter' },
  ],
  welds: [],
})

/** A running session as GET /api/portal/live and live_session messages carry it (portal.LiveSession). */
export const liveSession = (extra: Record<string, unknown> = {}) => ({
  sessionId: sessionId,
  userId: learnerId,
  learnerName: 'Bo Builder',
  moduleId: 'electrical-lockout-tagout',
  moduleTitle: 'Lockout/Tagout',
  sessionType: 'desktop',
  startedAt: '2026-11-23T22:20:00Z',
  updatedAt: '2026-11-23T22:25:00Z',
  status: 'running',
  outcome: '',
  step: { index: 1, total: 6, id: 'open-disconnect', instruction: 'Switch the fused disconnect to OFF.' },
  stepsDone: 1,
  stepsTotal: 6,
  safetyChecks: [
    { id: 'ppe-worn', description: 'Arc-rated PPE worn', status: 'passed' },
    { id: 'zero-energy', description: 'Absence of voltage proven', status: 'pending' },
  ],
  interactions: 1,
  ...extra,
})

/** A safety alert as GET /api/safety-alerts and safety_alert messages carry it, with its acknowledgement. */
export const liveAlert = (extra: Record<string, unknown> = {}) => ({
  id: 7,
  userId: learnerId,
  displayName: 'Bo Builder',
  sessionId: '',
  alertType: 'emergency',
  description: 'Emergency stop requested',
  createdAt: '2026-11-23T22:30:00Z',
  acknowledgement: null,
  ...extra,
})
