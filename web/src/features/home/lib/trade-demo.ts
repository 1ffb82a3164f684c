import { demoStageIds, tradeDemoItems, type DemoStageId, type TradeDemoItem } from '@/content/home'

/** The stage's 1-based position among the five stages. */
export function stagePosition(stage: DemoStageId): number {
  return demoStageIds.indexOf(stage) + 1
}

/** Completion Rate: the stage's position ÷ 5 as a rounded percentage (spec 000 §4); overview is 20. */
export function completionRate(stage: DemoStageId): number {
  return Math.round((stagePosition(stage) / demoStageIds.length) * 100)
}

/** How a stage shows against the current one: earlier stages carry a check mark. */
export function stageStatus(stage: DemoStageId, current: DemoStageId): 'done' | 'current' | 'upcoming' {
  const diff = stagePosition(stage) - stagePosition(current)
  return diff < 0 ? 'done' : diff === 0 ? 'current' : 'upcoming'
}

/** The stage after this one, or null on the last. */
export function nextStage(stage: DemoStageId): DemoStageId | null {
  return demoStageIds[stagePosition(stage)] ?? null
}

/** The trade with this id; anything else is the first (electrical). */
export function resolveTrade(id: string | null | undefined): TradeDemoItem {
  return tradeDemoItems.find((t) => t.id === id) ?? tradeDemoItems[0]
}

/** True for a Firefox user agent, which gets the spec's notice. */
export function isFirefox(userAgent: string): boolean {
  return userAgent.includes('Firefox')
}

/** The least a module must carry to be chosen as a trade's starting point. */
export interface ModuleRef {
  id: string
  tradeId: string
  prerequisites?: readonly string[]
}

/**
 * The module 'Start Full Training' opens for a trade: the catalog's first
 * module of that trade without prerequisites (where a newcomer starts), else
 * its first module, else the trade's seeded default.
 */
export function entryModuleId(modules: readonly ModuleRef[] | undefined, trade: TradeDemoItem): string {
  const ofTrade = (modules ?? []).filter((m) => m.tradeId === trade.id)
  return (ofTrade.find((m) => !m.prerequisites?.length) ?? ofTrade[0])?.id ?? trade.defaultModuleId
}
