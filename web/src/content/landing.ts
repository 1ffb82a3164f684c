/**
 * The original landing page's fixed content (spec 000 §2, §3, §9): its
 * experiences, the nine fallback trades, the dashboard's recent activity and
 * quick actions, the authoring studio's palette and the feature lists.
 */

/** The hero's feature chips, in order. */
export const heroChips = ['4K Ultra HD Visuals', 'Haptic Feedback', 'Spatial Audio', 'Industry Certified'] as const

/** One of the three immersive experiences (spec 000 §3, Experience). */
export interface Experience {
  id: 'welding' | 'electrical' | 'renewable'
  title: string
  description: string
  /** The loop, as sources in order of preference. */
  videoSources: readonly { src: string; type: string }[]
  /** The file the 'Watch video in new tab' link opens. */
  videoUrl: string
  thumbnail: string
  /** A 360° panorama of the scene, panned by the 360° View. */
  panorama: string
  duration: string
  difficulty: 'Beginner' | 'Intermediate' | 'Advanced'
  skills: readonly string[]
  /** The catalog module the experience launches in the XR Training Center. */
  moduleId: string
}

function media(name: string) {
  return {
    videoSources: [
      { src: `/landing/${name}.webm`, type: 'video/webm' },
      { src: `/landing/${name}.mp4`, type: 'video/mp4' },
    ],
    videoUrl: `/landing/${name}.mp4`,
    thumbnail: `/landing/${name}-poster.webp`,
    panorama: `/landing/${name}-360.webp`,
  }
}

/** The three experiences, welding first (the initial choice). */
export const experiences: readonly Experience[] = [
  {
    id: 'welding',
    title: 'Advanced Welding Simulation',
    description:
      'Strike an arc in a virtual booth and run SMAW fillet welds with real-time feedback on travel speed, work angle and arc length, without burns or fumes.',
    ...media('welding-simulation'),
    duration: '15-20 min',
    difficulty: 'Intermediate',
    skills: ['Arc striking and control', 'Travel speed and work angle', 'Fillet weld profiles', 'Welding PPE and fume safety'],
    moduleId: 'welding-smaw-fillet',
  },
  {
    id: 'electrical',
    title: 'Electrical Panel Training',
    description:
      'Walk up to an energized distribution panel, apply lockout/tagout and prove it dead with a meter before you touch a conductor.',
    ...media('electrical-panel'),
    duration: '12-15 min',
    difficulty: 'Beginner',
    skills: ['Lockout/tagout sequence', 'Test-before-touch with a multimeter', 'Reading panel schedules', 'Arc flash boundaries'],
    moduleId: 'electrical-lockout-tagout',
  },
  {
    id: 'renewable',
    title: 'Solar Panel Installation',
    description:
      'Lay out a rooftop PV array, size the strings to the inverter and wire the combiner box while tied off to a fall-protection anchor.',
    ...media('solar-installation'),
    duration: '18-25 min',
    difficulty: 'Advanced',
    skills: ['PV string sizing', 'Inverter matching', 'Combiner box wiring', 'Rooftop fall protection'],
    moduleId: 'solar-wind-pv-string-sizing',
  },
]

/** A row of the dashboard's recent activity (static, spec 000 §2). */
export interface ActivityRow {
  learner: string
  action: string
  when: string
  points: number
}

export const recentActivity: readonly ActivityRow[] = [
  { learner: 'Maria Santos', action: 'completed Electrical Panel Training', when: '5 minutes ago', points: 95 },
  { learner: 'James Carter', action: 'passed the SMAW fillet weld assessment', when: '18 minutes ago', points: 87 },
  { learner: 'Aisha Khan', action: 'earned the OSHA 10 safety badge', when: '42 minutes ago', points: 120 },
  { learner: 'Tom Nguyen', action: 'finished Solar Panel Installation', when: '1 hour ago', points: 78 },
]

/** Where a dashboard quick action goes: a page, or a section of this page. */
export interface QuickAction {
  label: string
  description: string
  href: string
}

export const quickActions: readonly QuickAction[] = [
  { label: 'Create XR Content', description: 'Open the authoring studio', href: '#authoring' },
  { label: 'View Analytics', description: 'Performance and safety reports', href: '/analytics' },
  { label: 'Manage Courses', description: 'Modules and learning paths', href: '/learning-hub' },
  { label: 'System Settings', description: 'Preferences and accessibility', href: '/personalization' },
]

/** A component of the authoring studio's palette. */
export interface PaletteItem {
  kind: string
  label: string
  description: string
}

export const authoringPalette: readonly PaletteItem[] = [
  { kind: 'model', label: '3D Model', description: 'Equipment, tools or a whole room' },
  { kind: 'tool', label: 'Interactive Tool', description: 'Something the learner picks up and uses' },
  { kind: 'hazard', label: 'Hazard Zone', description: 'An area that triggers a safety response' },
  { kind: 'instruction', label: 'Instruction Panel', description: 'Step-by-step guidance in the scene' },
  { kind: 'audio', label: 'Spatial Audio Cue', description: 'A sound anchored to a place' },
  { kind: 'checkpoint', label: 'Assessment Checkpoint', description: 'A scored step of the task' },
]

/** The properties panel's fixed option lists (spec 000 §2). */
export const interactionTypes = ['click', 'grab', 'proximity'] as const
export const safetyLevels = ['high', 'medium', 'low'] as const
export type InteractionType = (typeof interactionTypes)[number]
export type SafetyLevel = (typeof safetyLevels)[number]

/** The studio's static scene summary, exactly as the spec gives it. */
export const authoringSummary = 'Objects: 12 | Interactions: 8 | Safety Triggers: 4'

/** One of the nine fallback trades (spec 000 §3, Trade module). */
export interface FallbackTrade {
  id: string
  title: string
  description: string
  icon: 'zap' | 'droplets' | 'thermometer' | 'flame' | 'sun' | 'car' | 'building' | 'radio-tower' | 'truck'
  color: string
  demandLevel: string
  demandColor: string
  aiRisk: 'Very Low' | 'Low' | 'Medium'
  features: readonly string[]
  moduleCount: number
  duration: number
  imageUrl: string
  /** The catalog module 'Start Training' opens: the trade's first. */
  startModuleId: string
}

/** The nine fallback trades, in the spec's table order. */
export const fallbackTrades: readonly FallbackTrade[] = [
  {
    id: 'electrical',
    title: 'Electricians',
    description: 'Wiring, panels and motor controls to the NEC, with lockout/tagout drilled until it is habit.',
    icon: 'zap',
    color: 'from-amber-500 to-yellow-600',
    demandLevel: 'Very Strong Growth',
    demandColor: 'bg-emerald-500/20 text-emerald-200',
    aiRisk: 'Low',
    features: ['NEC code compliance', 'Panel and circuit work', 'Arc flash safety'],
    moduleCount: 15,
    duration: 45,
    imageUrl: '/landing/electrical-panel-poster.webp',
    startModuleId: 'electrical-lockout-tagout',
  },
  {
    id: 'plumbing',
    title: 'Plumbers/Pipefitters/Steamfitters',
    description: 'Supply and drain systems, soldering and brazing, backflow and steam piping.',
    icon: 'droplets',
    color: 'from-sky-500 to-blue-600',
    demandLevel: 'High Demand',
    demandColor: 'bg-sky-500/20 text-sky-200',
    aiRisk: 'Very Low',
    features: ['Pipe joining methods', 'DWV layout', 'Backflow testing'],
    moduleCount: 12,
    duration: 38,
    imageUrl: '/media/plumbing-vr-poster.webp',
    startModuleId: 'plumbing-leak-isolation',
  },
  {
    id: 'hvac',
    title: 'HVAC Technicians',
    description: 'Refrigeration cycle, gauges, charging and recovery for heat pumps and split systems.',
    icon: 'thermometer',
    color: 'from-cyan-500 to-teal-600',
    demandLevel: 'Climate Critical',
    demandColor: 'bg-teal-500/20 text-teal-200',
    aiRisk: 'Low',
    features: ['EPA 608 preparation', 'Superheat and subcooling', 'Electrical diagnostics'],
    moduleCount: 14,
    duration: 42,
    imageUrl: '/media/hvac-mixed-poster.webp',
    startModuleId: 'hvac-refrigeration-cycle',
  },
  {
    id: 'welding',
    title: 'Welders & Fabricators',
    description: 'SMAW, FCAW and inspection to AWS D1.1, from joint preparation to the bend test.',
    icon: 'flame',
    color: 'from-orange-500 to-red-600',
    demandLevel: 'High Skills Required',
    demandColor: 'bg-orange-500/20 text-orange-200',
    aiRisk: 'Medium',
    features: ['Arc and travel control', 'Joint fit-up', 'Visual inspection'],
    moduleCount: 16,
    duration: 48,
    imageUrl: '/landing/welding-simulation-poster.webp',
    startModuleId: 'welding-shop-safety',
  },
  {
    id: 'solar-wind',
    title: 'Solar Panel & Wind Turbine Technicians',
    description: 'PV arrays, string sizing and inverters; turbine climbs and tower rescue.',
    icon: 'sun',
    color: 'from-yellow-400 to-lime-600',
    demandLevel: 'Future Energy Leaders',
    demandColor: 'bg-lime-500/20 text-lime-200',
    aiRisk: 'Very Low',
    features: ['PV system design', 'Tower climbing', 'Fall protection'],
    moduleCount: 18,
    duration: 50,
    imageUrl: '/landing/solar-installation-poster.webp',
    startModuleId: 'solar-wind-site-safety',
  },
  {
    id: 'automotive',
    title: 'Automotive Technicians EV',
    description: 'High-voltage disconnects, battery diagnostics and CAN bus on electric vehicles.',
    icon: 'car',
    color: 'from-violet-500 to-indigo-600',
    demandLevel: 'EV Transition Critical',
    demandColor: 'bg-violet-500/20 text-violet-200',
    aiRisk: 'Low',
    features: ['HV safety disconnect', 'Battery diagnostics', 'Network diagnostics'],
    moduleCount: 14,
    duration: 40,
    imageUrl: '/media/electrical-vr-poster.webp',
    startModuleId: 'automotive-shop-fundamentals',
  },
  {
    id: 'elevator',
    title: 'Elevator Installers',
    description: 'Pit and car-top access, hydraulic maintenance and controller troubleshooting.',
    icon: 'building',
    color: 'from-slate-400 to-slate-600',
    demandLevel: 'Urban Growth Essential',
    demandColor: 'bg-slate-500/30 text-slate-100',
    aiRisk: 'Very Low',
    features: ['Safe hoistway access', 'Door operators', 'Controllers'],
    moduleCount: 10,
    duration: 35,
    imageUrl: '/media/construction-ar-poster.webp',
    startModuleId: 'elevator-pit-entry',
  },
  {
    id: 'lineworker',
    title: 'Lineworkers',
    description: 'Pole climbing, temporary grounds, rigging and rubber-glove work on live lines.',
    icon: 'radio-tower',
    color: 'from-blue-500 to-cyan-600',
    demandLevel: 'Grid Modernization',
    demandColor: 'bg-blue-500/20 text-blue-200',
    aiRisk: 'Low',
    features: ['Climbing and rescue', 'Grounding', 'Transformer connections'],
    moduleCount: 13,
    duration: 44,
    imageUrl: '/landing/electrical-panel-poster.webp',
    startModuleId: 'lineworker-pole-climbing',
  },
  {
    id: 'heavy-equipment',
    title: 'Heavy Equipment & Diesel Mechanics',
    description: 'Walkarounds, signalling and excavator operation, with diesel service on the side.',
    icon: 'truck',
    color: 'from-yellow-500 to-amber-700',
    demandLevel: 'Infrastructure Essential',
    demandColor: 'bg-amber-500/20 text-amber-200',
    aiRisk: 'Low',
    features: ['Pre-use inspection', 'Hand signals', 'Machine control'],
    moduleCount: 12,
    duration: 40,
    imageUrl: '/media/construction-ar-poster.webp',
    startModuleId: 'heavy-equipment-walkaround',
  },
]

/** The analytics section's four feature cards. */
export const analyticsFeatures: readonly { title: string; description: string }[] = [
  { title: 'Real-Time Performance Tracking', description: 'Every grab, weld pass and meter reading scored as it happens.' },
  { title: 'Safety Compliance Monitoring', description: 'See who skipped a lockout step or left PPE off, before it happens on site.' },
  { title: 'Skill Gap Analysis', description: 'Compare each apprentice against the competencies their certification requires.' },
  { title: 'Predictive Insights', description: 'Spot learners who need a refresher before their skills fade.' },
]

/** The digital twin section's four feature points. */
export const digitalTwinPoints: readonly string[] = [
  'Live sensor data from real equipment mirrored in the training scene',
  'Practise fault finding on a twin before touching the machine',
  'Maintenance history and schedules alongside every asset',
  'Modbus, OPC-UA and MQTT connections to plant systems',
]
