/**
 * Answers as the Go server sends them (captured from bin/journeyman and
 * trimmed to a few items): the shapes the schemas of src/api must read.
 * Each is a function so a test can change its copy freely.
 */

export const userId = 'e861f3488319d4eccc77aa954705223f'

export const guest = () => ({ id: userId, displayName: 'Guest E861', guest: true, email: null, role: 'guest', organisation: null })

export const trades = () => [
  {
    id: 'electrical',
    name: 'Electrical',
    description: 'Electricians install, maintain and repair the wiring, controls and equipment that distribute power.',
    certifications: ['OSHA 10-Hour Electrical Safety', 'NFPA 70E Arc Flash Safety', 'Journeyman Electrician License'],
  },
  {
    id: 'plumbing',
    name: 'Plumbing',
    description: 'Plumbers install and service potable water supply, drain-waste-vent, fuel gas and water heating systems.',
    certifications: ['Journeyman Plumber License'],
  },
]

export const modules = () => [
  {
    id: 'electrical-lockout-tagout',
    tradeId: 'electrical',
    title: 'Lockout/Tagout and Establishing an Electrically Safe Work Condition',
    description: 'Walk through the OSHA 1910.147 and NFPA 70E Article 120 steps for de-energizing equipment.',
    difficulty: 'beginner',
    estimatedDuration: 45,
    learningObjectives: ['Identify every energy source feeding a piece of equipment'],
    safetyPoints: ['Never rely on a control switch or interlock as an energy-isolating device'],
    prerequisites: [],
    categories: ['safety', 'hazard-recognition', 'onboarding'],
  },
  {
    id: 'electrical-meter-basics',
    tradeId: 'electrical',
    title: 'Multimeter Fundamentals and CAT Ratings',
    description: 'Learn to measure voltage, current, resistance and continuity safely.',
    difficulty: 'beginner',
    estimatedDuration: 40,
    learningObjectives: ['Measure voltage, current and resistance'],
    safetyPoints: ['Inspect leads before every use'],
    prerequisites: ['electrical-lockout-tagout'],
    categories: ['technical', 'safety'],
  },
  {
    id: 'electrical-arc-flash-ppe',
    tradeId: 'electrical',
    title: 'Arc Flash Hazard Analysis and PPE Selection',
    description: 'Read arc flash labels and choose the PPE they call for.',
    difficulty: 'intermediate',
    estimatedDuration: 50,
    learningObjectives: ['Read an arc flash label'],
    safetyPoints: ['Treat unlabelled gear as energized'],
    prerequisites: ['electrical-lockout-tagout'],
    categories: ['safety', 'hazard-recognition'],
  },
  {
    id: 'plumbing-soldering',
    tradeId: 'plumbing',
    title: 'Soldering Copper Pipe',
    description: 'Clean, flux and sweat copper joints that do not leak.',
    difficulty: 'beginner',
    estimatedDuration: 35,
    learningObjectives: ['Sweat a leak-free joint'],
    safetyPoints: ['Keep a fire extinguisher within reach'],
    prerequisites: [],
    categories: ['technical'],
  },
]

export const xrContent = () => ({
  moduleTitle: 'Lockout/Tagout and Establishing an Electrically Safe Work Condition',
  sceneUrl: '/api/xr-scenes/electrical-lockout-tagout',
  scene: scene(),
})

export const scene = () => ({
  id: 'electrical-lockout-tagout',
  title: 'Lockout/tagout of a 480 V motor-control panel',
  tradeIds: ['electrical'],
  environment: 'A plant electrical room.',
  objects: [
    { id: 'face-shield', label: 'Arc-rated face shield', shape: 'sphere', position: [0, 1, 0], rotation: [0, 0, 0], size: [0.1, 0, 0], color: '#ffffff' },
    { id: 'disconnect', label: 'Fused disconnect handle', shape: 'box', position: [0.7, 1.2, -1.75], rotation: [0, 0, 0], size: [0.08, 0.35, 0.08], color: '#c8281e' },
  ],
  steps: [
    { id: 'don-ppe', instruction: 'Put on the arc-rated face shield.', target: 'face-shield', action: 'grab', safetyCheckId: 'arc-flash-ppe', minDurationMs: 3000 },
    { id: 'open-disconnect', instruction: 'Open the disconnect.', target: 'disconnect', action: 'click', minDurationMs: 1500 },
  ],
  safetyChecks: [{ id: 'arc-flash-ppe', description: 'Arc-rated PPE worn before operating the disconnect', weight: 2 }],
  passCriteria: { requiredSteps: ['don-ppe', 'open-disconnect'], minSafetyScore: 80 },
})

/** POST /api/xr-sessions → 201. */
export const startedSession = () => ({
  id: '3b3bf0dd-55fb-4574-9ef4-593da737ff61',
  userId,
  moduleId: 'electrical-lockout-tagout',
  moduleTitle: 'Lockout/Tagout and Establishing an Electrically Safe Work Condition',
  sessionType: 'desktop',
  deviceType: 'Mozilla/5.0',
  startedAt: '2026-11-23T22:27:26Z',
  endedAt: null,
  duration: 0,
  completionStatus: 'in_progress',
  position: null,
  rotation: null,
  interactionData: { interactions: [], safetyChecks: [], completionStatus: '' },
  safetyScore: null,
  updatedAt: '2026-11-23T22:27:26.978844622Z',
  serverStartedAt: '2026-11-23T22:27:26.978844622Z',
  verified: false,
  verificationIssues: [],
})

/** PATCH /api/xr-sessions/{id} with endedAt → 200. */
export const endedSession = () => ({
  ...startedSession(),
  endedAt: '2026-11-23T22:27:30Z',
  duration: 2,
  completionStatus: 'completed',
  interactionData: {
    interactions: [{ action: 'look', receivedAt: '2026-11-23T22:27:30.563832286Z', seq: 0, sessionTime: 500, timestamp: '2026-11-23T22:27:30.563832286Z' }],
    safetyChecks: [{ id: 'arc-flash-ppe', status: 'skipped' }],
    completionStatus: 'failed',
  },
  safetyScore: 0,
  updatedAt: '2026-11-23T22:27:30.780040172Z',
  verified: true,
})

/** An item of GET /api/users/{userId}/xr-sessions (and of /api/live-sessions). */
export const sessionSummary = (extra: Record<string, unknown> = {}) => ({
  id: '3b3bf0dd-55fb-4574-9ef4-593da737ff61',
  userId,
  moduleId: 'electrical-lockout-tagout',
  moduleTitle: 'Lockout/Tagout and Establishing an Electrically Safe Work Condition',
  sessionType: 'desktop',
  deviceType: 'Mozilla/5.0 (X11; Linux x86_64)',
  startedAt: '2026-11-23T22:27:26Z',
  endedAt: '2026-11-23T22:27:30Z',
  duration: 120,
  completionStatus: 'completed',
  outcome: 'passed',
  safetyScore: 100,
  updatedAt: '2026-11-23T22:27:30.780040172Z',
  verified: true,
  verificationIssues: [],
  // The lockout scene's checks (internal/training/scenes.go), all passed as a score of 100 needs.
  safetyChecks: ['arc-flash-ppe', 'lock-applied', 'tester-proven', 'absence-of-voltage', 'try-start'].map((id) => ({ id, status: 'passed' })),
  ...extra,
})

export const xrAnalytics = () => ({
  totalSessions: 1,
  totalDuration: 7200,
  averageSafetyScore: 96.5,
  completedModules: 1,
  tradeProgress: [
    { tradeId: 'electrical', tradeName: 'Electrical', completed: 1, total: 6, percent: 17 },
    { tradeId: 'plumbing', tradeName: 'Plumbing', completed: 0, total: 5, percent: 0 },
  ],
})

export const dashboardStats = () => ({ activeLearners: 12, totalCertifications: 3, totalXrSessions: 40, averageSafetyScore: 91.25, scope: 'platform' })

export const learningPreferences = () => ({
  preferredLearningStyle: 'visual',
  xrComfortLevel: 'beginner',
  sessionDuration: 45,
  industryExperience: 0,
  learningGoals: '',
  difficultyProgression: 'gradual',
  focusAreas: [],
  availableTimeSlots: [],
  certificationGoals: [],
  saved: true,
  updatedAt: '2026-11-23T22:27:40.990587859Z',
})

export const storedAssessment = () => ({
  id: 1,
  tradeCategory: 'electrical',
  skillAreas: [],
  currentLevels: [],
  strengths: ['wiring'],
  improvementAreas: [],
  overallScore: 40,
  assessmentType: 'initial',
  level: 'intermediate',
  createdAt: '2026-11-23T22:27:40.850619937Z',
})

export const skillAssessments = () => {
  const { id: _id, level: _level, createdAt: _createdAt, ...initial } = storedAssessment()
  return { assessments: [storedAssessment()], initial }
}

export const recommendationSet = () => ({
  id: 1,
  createdAt: '2026-11-23T22:27:41.25284048Z',
  request: { tradeCategory: 'electrical', currentSkillLevel: 'beginner', timeConstraints: { hoursPerWeek: 2, preferredSessionLength: 45 }, focusAreas: [] },
  recommendations: {
    reasoningExplanation: 'These paths use the 6 Electrical modules of the catalog.',
    recommendedPaths: [
      {
        id: 'electrical-core-intermediate',
        name: 'Electrical intermediate core path',
        difficulty: 'intermediate',
        description: 'Every intermediate Electrical module you have not completed yet.',
        estimatedDuration: 5.2,
        moduleSequence: ['electrical-lockout-tagout', 'electrical-arc-flash-ppe'],
      },
    ],
    personalizedModifications: ['Sessions sized to 45 minutes.'],
    estimatedOutcomes: ['About 3 weeks at 2 hours per week.'],
  },
})

export const refresher = (extra: Record<string, unknown> = {}) => ({
  moduleId: 'electrical-lockout-tagout',
  moduleTitle: 'Lockout/Tagout and Establishing an Electrically Safe Work Condition',
  tradeId: 'electrical',
  due: '2026-11-22T10:00:00Z',
  lastReview: '2026-11-21T10:00:00Z',
  state: 'review',
  reps: 2,
  lapses: 0,
  stability: 4.9,
  difficulty: 5.1,
  elapsedDays: 1,
  scheduledDays: 5,
  retrievability: 0.93,
  ...extra,
})

export const refreshers = () => ({ now: '2026-11-23T22:27:34.99004357Z', due: [refresher()], upcoming: [refresher({ moduleId: 'electrical-meter-basics', moduleTitle: 'Multimeter Fundamentals and CAT Ratings', due: '2026-11-30T10:00:00Z' })] })

export const personalization = () => ({
  experienceLevel: 'beginner',
  primaryTrade: '',
  learningStyle: 'mixed',
  xrComfortLevel: 5,
  preferredSessionLength: 30,
  motionSensitivity: 'medium',
  difficultyProgression: 'moderate',
  safetyEmphasis: 8,
  feedbackFrequency: 'moderate',
  visualAssistance: [],
  audioAssistance: [],
  motorAssistance: [],
  colorScheme: 'dark',
  fontSize: 'medium',
  uiComplexity: 'standard',
  saved: true,
  updatedAt: '2026-11-23T22:27:41.358722582Z',
  applied: { reducedMotion: false, captions: false, extendedTimeouts: false },
})

export const equipment = (extra: Record<string, unknown> = {}) => ({
  id: 'pnl-lp2a',
  name: 'Main Distribution Panelboard LP-2A',
  manufacturer: 'Square D',
  model: 'NF 480Y/277 V 225 A with PowerLogic PM5560',
  serialNumber: 'SQD-NF-2231-0457',
  type: 'panelboard',
  status: 'operational',
  alertLevel: 'normal',
  communicationProtocol: 'Modbus TCP',
  protocolVersion: 'Modbus Application Protocol 1.1b3',
  connectionParameters: { host: '10.20.1.15', port: 502, unitId: 1, functionCode: 3, startAddress: 0, registerCount: 14 },
  syncStatus: 'synced',
  syncErrorCount: 0,
  operatingHours: 8760,
  sensorData: { temperature: { value: 34.5, unit: '°C' }, current: { value: 142, unit: 'A' }, voltage: { value: 479.6, unit: 'V' } },
  lastUpdated: '2026-11-20T08:00:00Z',
  lastMaintenance: '2026-06-10T00:00:00Z',
  nextMaintenanceDate: '2027-06-10T00:00:00Z',
  maintenanceSchedule: { intervalDays: 365, tasks: [{ task: 'Infrared scan of breakers', frequency: 'annual', trade: 'electrical' }] },
  supportedTradeTypes: ['electrical'],
  ...extra,
})

export const equipmentAlert = (extra: Record<string, unknown> = {}) => ({
  id: 'bp-2:vibration:above',
  equipmentId: 'bp-2',
  equipmentName: 'Domestic Water Booster Pump BP-2',
  equipmentType: 'booster-pump',
  level: 'warning',
  source: 'sensor',
  sensor: 'vibration',
  reading: 5.2,
  threshold: 4.5,
  comparison: 'above',
  unit: 'mm/s',
  message: 'Domestic Water Booster Pump BP-2 vibration 5.2 mm/s, above the warning threshold of 4.5 mm/s',
  timestamp: '2026-11-20T08:00:00Z',
  ...extra,
})

export const dataStream = (extra: Record<string, unknown> = {}) => ({
  id: 'chlr-1:temperature',
  equipmentId: 'chlr-1',
  streamName: 'Centrifugal Chiller CH-1 Temperature',
  sensor: 'temperature',
  value: 6.7,
  previousValue: null,
  unit: '°C',
  qualityIndicator: 'good',
  timestamp: '2026-11-20T08:00:00Z',
  history: [{ value: 6.7, qualityIndicator: 'good', timestamp: '2026-11-20T08:00:00Z' }],
  ...extra,
})

export const protocolExchange = () => ({
  protocol: 'modbus',
  equipmentId: 'pnl-lp2a',
  device: '127.0.0.1:40123',
  client: 'github.com/simonvetter/modbus',
  request: { direction: 'request', length: 12, hex: '000100000006010300000004', summary: 'Read Holding Registers: 4 from address 0', fields: [{ name: 'Transaction ID', value: '1' }] },
  response: { direction: 'response', length: 17, hex: '00010000000b010308', summary: 'Read Holding Registers response', fields: [] },
  frames: [],
  result: [{ address: 0, name: 'temperature (float32, registers 0–1)', raw: '0x40d6', value: 6.7, unit: '°C' }],
  durationMs: 1.8,
  timestamp: '2026-11-20T08:00:00Z',
})

export const voiceModule = (extra: Record<string, unknown> = {}) => ({
  id: 'electrical-lockout-tagout',
  name: 'Lockout/Tagout of Machinery',
  type: 'safety procedure',
  trade: 'electrical',
  difficulty: 'intermediate',
  description: 'The energy-control procedure of OSHA 1910.147.',
  totalSteps: 2,
  steps: ['Notify everyone who works on or near the machine.', 'Open the disconnect.'],
  voiceCommands: [
    { command: 'start training', action: 'start', description: 'Begin the procedure' },
    { command: 'next step', action: 'next', description: 'Go to the next step' },
  ],
  ...extra,
})

export const safetyAlert = (extra: Record<string, unknown> = {}) => ({
  id: 7,
  userId,
  displayName: 'Guest E861',
  sessionId: '',
  alertType: 'emergency',
  description: 'Emergency stop requested',
  createdAt: '2026-11-23T22:30:00Z',
  ...extra,
})
