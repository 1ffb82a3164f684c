import type { Trade, TrainingModule as CatalogModule } from '@/api/catalog'

/** What each training category is about, for its page's introduction. */
export const categoryDescriptions: Record<string, string> = {
  technical: 'Core trade skills practised hands-on: measuring, bending, wiring, joining, charging and diagnosing, until they are second nature.',
  onboarding: 'First-week essentials for new apprentices: shop and site safety, tools, and the basics every later module builds on.',
  safety: 'Lockout/tagout, PPE, fall protection and safe work conditions, rehearsed where a mistake costs nothing.',
  teamwork: 'Signalling, rigging, handoffs and crew communication for tasks no one does alone.',
  troubleshooting: 'Systematic fault finding on circuits, systems and machines, from symptom to root cause.',
  'hazard-recognition': 'Spotting arc flash, confined spaces, pressure, height and moving-machine hazards before they hurt someone.',
}

/** The modules of one trade within a category. */
export interface TradeGroup {
  trade: Trade
  modules: CatalogModule[]
}

/**
 * The category's modules grouped by trade, trades in catalog order and
 * modules in catalog order within each; trades without a module in the
 * category are left out. A module of a trade the list lacks gets a plain
 * group named after its id.
 */
export function groupByTrade(modules: readonly CatalogModule[], trades: readonly Trade[], category: string): TradeGroup[] {
  const groups = new Map<string, TradeGroup>()
  for (const t of trades) groups.set(t.id, { trade: t, modules: [] })
  for (const m of modules) {
    if (!m.categories.includes(category)) continue
    let group = groups.get(m.tradeId)
    if (!group) {
      group = { trade: { id: m.tradeId, name: m.tradeId, description: '', certifications: [] }, modules: [] }
      groups.set(m.tradeId, group)
    }
    group.modules.push(m)
  }
  return [...groups.values()].filter((g) => g.modules.length > 0)
}
