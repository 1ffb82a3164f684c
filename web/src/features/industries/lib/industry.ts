import type { TrainingModule as CatalogModule } from '@/api/catalog'

/** The difficulty filter's choices; 'all' shows every module. */
export const difficultyFilters = ['all', 'beginner', 'intermediate', 'advanced'] as const
export type DifficultyFilter = (typeof difficultyFilters)[number]

/** The navigation's industry slug is the catalog's trade id. */
export function tradeIdOf(industry: string): string {
  return industry
}

/** An industry's modules in catalog order, narrowed to one difficulty unless 'all'. */
export function industryModules(modules: readonly CatalogModule[], tradeId: string, filter: DifficultyFilter = 'all'): CatalogModule[] {
  return modules.filter((m) => m.tradeId === tradeId && (filter === 'all' || m.difficulty === filter))
}

/** The headline figures of an industry's programme. */
export interface IndustrySummary {
  modules: number
  totalMinutes: number
  byDifficulty: Record<'beginner' | 'intermediate' | 'advanced', number>
}

export function summarize(modules: readonly CatalogModule[]): IndustrySummary {
  const byDifficulty = { beginner: 0, intermediate: 0, advanced: 0 }
  let totalMinutes = 0
  for (const m of modules) {
    totalMinutes += m.estimatedDuration
    if (m.difficulty in byDifficulty) byDifficulty[m.difficulty as keyof typeof byDifficulty]++
  }
  return { modules: modules.length, totalMinutes, byDifficulty }
}

/** The titles of a module's prerequisites that the catalog knows. */
export function prerequisiteTitles(module: CatalogModule, all: readonly CatalogModule[]): string[] {
  return module.prerequisites.map((id) => all.find((m) => m.id === id)?.title).filter((t): t is string => !!t)
}
