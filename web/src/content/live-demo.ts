/** The live XR demo's fixed tables (seed 001 §3, §9). */

/** A demo scene's status (seed 001 §4): live shows LIVE, starting-soon shows Soon. */
export type DemoSceneStatus = 'live' | 'starting-soon'

/** A demo scene of the Available Sessions list (seed 001 §3: fixed local data). */
export interface DemoScene {
  id: string
  title: string
  description: string
  duration: string
  difficulty: 'Beginner' | 'Intermediate' | 'Advanced'
  participants: number
  status: DemoSceneStatus
}

export const demoScenes: readonly DemoScene[] = [
  {
    id: 'electrical-safety',
    title: 'Electrical Safety Training',
    description: 'Lockout/tagout on a 480 V motor control centre: isolate, lock, prove the tester, verify absence of voltage.',
    duration: '12 min',
    difficulty: 'Advanced',
    participants: 23,
    status: 'live',
  },
  {
    id: 'welding-basics',
    title: 'Arc Welding Fundamentals',
    description: 'Strike and hold a stable arc, then run a fillet bead with the right travel speed, angle and arc length.',
    duration: '18 min',
    difficulty: 'Intermediate',
    participants: 18,
    status: 'live',
  },
  {
    id: 'plumbing-repair',
    title: 'Emergency Pipe Repair',
    description: 'Find the shut-off, relieve the pressure, and clamp a burst copper line before the ceiling comes down.',
    duration: '15 min',
    difficulty: 'Beginner',
    participants: 31,
    status: 'starting-soon',
  },
]

/** The label a demo scene's status shows (seed 001 §4). */
export const demoSceneStatusLabel: Record<DemoSceneStatus, string> = { live: 'LIVE', 'starting-soon': 'Soon' }

/** The XR Features Active list (seed 001 §2). */
export const xrFeaturesActive: readonly string[] = [
  'WebXR compatible',
  'Real-time collaboration',
  'Multi-device',
  'AI performance tracking',
  'Safety monitoring',
]

/** The simulated counters' starting values (seed 001 §9). */
export const initialDemoStats = {
  viewers: 847,
  activeUsers: 23,
  completionRate: 94,
  averageScore: 89,
  safetyIncidents: 0,
} as const

/** How often the counters change while the demo runs (seed 001 §9). */
export const DEMO_TICK_MS = 2000

/** The viewer's timer text while running and otherwise (seed 001 §2). */
export const RUNNING_TIMER_TEXT = 'Live • 8:32'
export const STOPPED_TIMER_TEXT = 'Ready to start'
