/**
 * The learning hub's static sample data (spec 001 §2, §9: 8 hub modules, 3
 * pathways). The spec fixes the counts and fields, not the contents; these
 * are shown only while the learner has no real session records, and the page
 * labels them as sample data.
 */

/** Hub module categories (spec 001 §3), in filter order after 'all'. */
export const hubCategories = ['essential', 'advanced', 'specialized'] as const
export type HubCategory = (typeof hubCategories)[number]

/** A hub module card (spec 001 §3 "Hub modules add …"). */
export interface HubModule {
  id: string
  title: string
  type: string
  difficulty: string
  category: HubCategory
  /** Minutes. */
  duration: number
  completed: boolean
  locked: boolean
  /** Percent, 0–100. */
  progress: number
  badgeEarned: boolean
  skills: string[]
}

/** A career pathway (spec 001 §3). */
export interface Pathway {
  id: string
  name: string
  description: string
  modules: number
  /** Percent complete. */
  completion: number
  /** Hours. */
  estimatedTime: number
  level: string
}

export const sampleHubModules: HubModule[] = [
  {
    id: 'sample-electrical-safety',
    title: 'Electrical Safety Fundamentals',
    type: 'vr',
    difficulty: 'beginner',
    category: 'essential',
    duration: 30,
    completed: true,
    locked: false,
    progress: 100,
    badgeEarned: true,
    skills: ['Lockout/tagout', 'PPE selection', 'Hazard recognition'],
  },
  {
    id: 'sample-tool-handling',
    title: 'Hand and Power Tool Handling',
    type: 'desktop',
    difficulty: 'beginner',
    category: 'essential',
    duration: 25,
    completed: true,
    locked: false,
    progress: 100,
    badgeEarned: false,
    skills: ['Tool inspection', 'Safe grip and stance'],
  },
  {
    id: 'sample-blueprint-reading',
    title: 'Blueprint and Schematic Reading',
    type: 'desktop',
    difficulty: 'beginner',
    category: 'essential',
    duration: 40,
    completed: false,
    locked: false,
    progress: 60,
    badgeEarned: false,
    skills: ['Symbols', 'Scale', 'Wiring diagrams'],
  },
  {
    id: 'sample-conduit-bending',
    title: 'Conduit Bending Practice',
    type: 'vr',
    difficulty: 'intermediate',
    category: 'specialized',
    duration: 45,
    completed: false,
    locked: false,
    progress: 0,
    badgeEarned: false,
    skills: ['Offsets', 'Saddles', 'Stub-ups'],
  },
  {
    id: 'sample-pipe-soldering',
    title: 'Copper Pipe Soldering',
    type: 'ar',
    difficulty: 'intermediate',
    category: 'specialized',
    duration: 35,
    completed: false,
    locked: false,
    progress: 20,
    badgeEarned: false,
    skills: ['Joint preparation', 'Flux and heat control'],
  },
  {
    id: 'sample-hvac-refrigerant',
    title: 'Refrigerant Recovery (EPA 608)',
    type: 'vr',
    difficulty: 'intermediate',
    category: 'specialized',
    duration: 50,
    completed: false,
    locked: true,
    progress: 0,
    badgeEarned: false,
    skills: ['Recovery machine setup', 'Leak checks'],
  },
  {
    id: 'sample-motor-controls',
    title: 'Motor Control Troubleshooting',
    type: 'vr',
    difficulty: 'advanced',
    category: 'advanced',
    duration: 60,
    completed: false,
    locked: true,
    progress: 0,
    badgeEarned: false,
    skills: ['Ladder logic', 'Contactor testing', 'Fault isolation'],
  },
  {
    id: 'sample-structural-welding',
    title: 'Structural Welding Certification Prep',
    type: 'ar',
    difficulty: 'advanced',
    category: 'advanced',
    duration: 90,
    completed: false,
    locked: true,
    progress: 0,
    badgeEarned: false,
    skills: ['Vertical-up fillets', 'Bend-test preparation'],
  },
]

export const samplePathways: Pathway[] = [
  {
    id: 'sample-apprentice',
    name: 'Apprentice Foundations',
    description: 'Safety, tools and drawings every trade starts with.',
    modules: 3,
    completion: 67,
    estimatedTime: 1.6,
    level: 'beginner',
  },
  {
    id: 'sample-journeyman',
    name: 'Journeyman Skills',
    description: 'The hands-on specialisations of a working tradesperson.',
    modules: 3,
    completion: 0,
    estimatedTime: 2.2,
    level: 'intermediate',
  },
  {
    id: 'sample-master',
    name: 'Master Technician',
    description: 'Troubleshooting and certification preparation.',
    modules: 2,
    completion: 0,
    estimatedTime: 2.5,
    level: 'advanced',
  },
]
