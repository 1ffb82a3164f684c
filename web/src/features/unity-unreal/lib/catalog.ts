import type { UnityModule, UnrealProject } from '@/content/unity-unreal'

/** Only an available module launches, and only if it names the catalog module its scene comes from (seed 001 §4). */
export function canLaunch(m: Pick<UnityModule, 'status' | 'moduleId'>): boolean {
  return m.status === 'available' && !!m.moduleId
}

/** Only a live project streams, and only if it names the catalog module its scene comes from (seed 001 §4). */
export function canStream(p: Pick<UnrealProject, 'status' | 'moduleId'>): boolean {
  return p.status === 'live' && !!p.moduleId
}

/** Counts per status, in the order given, for the tab summaries. */
export function countByStatus<S extends string>(items: readonly { status: S }[], order: readonly S[]): { status: S; count: number }[] {
  return order.map((status) => ({ status, count: items.filter((i) => i.status === status).length }))
}
