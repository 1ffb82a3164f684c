import type { HubCategory, HubModule, Pathway } from '@/content/learning-hub'
import type { LearningSession } from '@/api/xr-sessions'

/** The four module display states (spec 001 §4). */
export type DisplayState = 'completed' | 'in-progress' | 'not-started' | 'locked'

export const displayStateLabels: Record<DisplayState, string> = {
  completed: 'Completed',
  'in-progress': 'In progress',
  'not-started': 'Not started',
  locked: 'Locked',
}

/**
 * A module's display state. Completed wins; then any progress shows as in
 * progress (a learner who already practised a module still sees that, even
 * if its prerequisites are unfinished); then locked; otherwise not started.
 */
export function displayState(m: Pick<HubModule, 'completed' | 'locked' | 'progress'>): DisplayState {
  if (m.completed) return 'completed'
  if (m.progress > 0) return 'in-progress'
  if (m.locked) return 'locked'
  return 'not-started'
}

/** The category filter: 'all' or one hub category. */
export type CategoryFilter = 'all' | HubCategory

export function filterByCategory(modules: HubModule[], filter: CategoryFilter): HubModule[] {
  return filter === 'all' ? modules : modules.filter((m) => m.category === filter)
}

/** The catalog fields the hub needs. */
export interface CatalogModule {
  id: string
  tradeId: string
  title: string
  difficulty: string
  estimatedDuration: number
  prerequisites: string[]
  learningObjectives: string[]
  categories: string[]
}

/** The session fields the hub needs: the learning pages' view of a record, less its title (the catalog names modules). */
export type SessionRecord = Omit<LearningSession, 'moduleTitle'>

/** The hub category of a catalog difficulty: the fundamentals are essential, intermediate work specialized. */
export function categoryOfDifficulty(difficulty: string): HubCategory {
  switch (difficulty.toLowerCase()) {
    case 'advanced':
      return 'advanced'
    case 'intermediate':
      return 'specialized'
    default:
      return 'essential'
  }
}

/** A badge is earned by passing a module with a safety score of at least this. */
export const BADGE_SAFETY_SCORE = 90

/** In-progress modules never show more than this, so only a pass shows 100%. */
const MAX_UNPASSED_PROGRESS = 95

/**
 * Hub cards for one trade's catalog modules from the learner's sessions. A
 * module is completed by a passed session; until then its progress is the
 * time spent in it against its estimated duration; it is locked while a
 * prerequisite is not completed.
 */
export function hubModulesFromSessions(catalog: CatalogModule[], sessions: SessionRecord[]): HubModule[] {
  const passed = new Set<string>()
  const seconds = new Map<string, number>()
  const bestScore = new Map<string, number>()
  for (const s of sessions) {
    seconds.set(s.moduleId, (seconds.get(s.moduleId) ?? 0) + Math.max(0, s.duration))
    if (s.completionStatus === 'completed' && s.outcome === 'passed') {
      passed.add(s.moduleId)
      if (s.safetyScore !== null) bestScore.set(s.moduleId, Math.max(bestScore.get(s.moduleId) ?? 0, s.safetyScore))
    }
  }
  return catalog.map((m) => {
    const completed = passed.has(m.id)
    const spent = seconds.get(m.id) ?? 0
    const progress = completed ? 100 : m.estimatedDuration > 0 ? Math.min(MAX_UNPASSED_PROGRESS, Math.round((spent / (m.estimatedDuration * 60)) * 100)) : 0
    return {
      id: m.id,
      title: m.title,
      type: 'xr',
      difficulty: m.difficulty,
      category: categoryOfDifficulty(m.difficulty),
      duration: m.estimatedDuration,
      completed,
      locked: m.prerequisites.some((p) => !passed.has(p)),
      progress: spent > 0 && progress === 0 && !completed ? 1 : progress,
      badgeEarned: completed && (bestScore.get(m.id) ?? 0) >= BADGE_SAFETY_SCORE,
      skills: m.learningObjectives.slice(0, 3),
    }
  })
}

/** The journey summary under the module cards. */
export interface JourneySummary {
  completed: number
  inProgress: number
  total: number
  /** Minutes of completed modules. */
  minutesCompleted: number
  badges: number
  /** Percent of modules completed. */
  percent: number
}

export function journeySummary(modules: HubModule[]): JourneySummary {
  const completed = modules.filter((m) => m.completed)
  const total = modules.length
  return {
    completed: completed.length,
    inProgress: modules.filter((m) => displayState(m) === 'in-progress').length,
    total,
    minutesCompleted: completed.reduce((sum, m) => sum + m.duration, 0),
    badges: modules.filter((m) => m.badgeEarned).length,
    percent: total ? Math.round((completed.length / total) * 100) : 0,
  }
}

const pathwayNames: Record<HubCategory, { name: string; level: string; description: (trade: string) => string }> = {
  essential: { name: 'Apprentice', level: 'beginner', description: (t) => `The ${t} fundamentals and safety practice every apprentice starts with.` },
  specialized: { name: 'Journeyman', level: 'intermediate', description: (t) => `The hands-on ${t} work of a journeyman.` },
  advanced: { name: 'Master', level: 'advanced', description: (t) => `Advanced ${t} troubleshooting and certification preparation.` },
}

/** The three career pathways of a trade: its essential, specialized and advanced modules, with real completion. */
export function pathwaysFor(tradeName: string, modules: HubModule[]): Pathway[] {
  return (['essential', 'specialized', 'advanced'] as const).map((category) => {
    const ms = modules.filter((m) => m.category === category)
    const done = ms.filter((m) => m.completed).length
    const info = pathwayNames[category]
    return {
      id: `${tradeName.toLowerCase()}-${category}`,
      name: `${info.name} ${tradeName}`,
      description: info.description(tradeName),
      modules: ms.length,
      completion: ms.length ? Math.round((done / ms.length) * 100) : 0,
      estimatedTime: Math.round(ms.reduce((sum, m) => sum + m.duration, 0) / 6) / 10,
      level: info.level,
    }
  })
}

/** Modules to offer in the launcher: not completed, not locked, in progress first, then catalog order. */
export function nextModules(modules: HubModule[], limit = 3): HubModule[] {
  const open = modules.filter((m) => !m.completed && displayState(m) !== 'locked')
  return [...open.filter((m) => m.progress > 0), ...open.filter((m) => m.progress === 0)].slice(0, limit)
}
