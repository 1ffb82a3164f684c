import type { Equipment, EquipmentAlert } from '@/api/twin'
import { ALERT_LEVELS } from './equipment'

/** The list with the twin replaced by its newer state; a twin the list does not hold is left for the next read. */
export function replaceEquipment(list: Equipment[], updated: Equipment): Equipment[] {
  return list.map((e) => {
    if (e.id !== updated.id) return e
    // An update comes as anyone may watch the twin, without its device's details: those the list holds (its own staff's answer) stay.
    if (updated.realDevice && !updated.connection && e.connection) return { ...updated, connection: e.connection, connectionParameters: e.connectionParameters }
    return updated
  })
}

/** How severe a level is; one the app does not know ranks below them all. */
const severity = (level: string) => (ALERT_LEVELS as readonly string[]).indexOf(level)

/** The server's order for alerts: most severe first, then newest. */
export function compareAlerts(a: EquipmentAlert, b: EquipmentAlert): number {
  const bySeverity = severity(b.level) - severity(a.level)
  if (bySeverity !== 0) return bySeverity
  return Date.parse(b.timestamp ?? '') - Date.parse(a.timestamp ?? '') || 0
}

/** The alerts with one twin's replaced by what it raises now, in the server's order. */
export function replaceTwinAlerts(list: EquipmentAlert[], equipmentId: string, alerts: EquipmentAlert[]): EquipmentAlert[] {
  return [...list.filter((a) => a.equipmentId !== equipmentId), ...alerts].sort(compareAlerts)
}
