import { expect, type APIRequestContext } from './test'

export const EQUIPMENT = '/api/digital-twin/equipment'

/** A twin's definition as POST and PUT /api/digital-twin/equipment take it; connection null keeps the demo device. */
export function twinDefinition(name: string, protocol: string, connection: unknown = null) {
  return {
    name,
    manufacturer: 'Test Works',
    model: 'TW-1',
    serialNumber: `SN-${Date.now()}`,
    type: 'booster-pump',
    supportedTradeTypes: ['plumbing'],
    communicationProtocol: protocol,
    maintenanceSchedule: { intervalDays: 90, tasks: [] },
    connection,
    writableSensors: [],
  }
}

/** Adds a twin as the caller of api (an instructor or admin: it becomes their organisation's) and answers it. */
export async function addTwin<T>(api: APIRequestContext, definition: ReturnType<typeof twinDefinition>): Promise<T> {
  const res = await api.post(EQUIPMENT, { data: definition })
  expect(res.status(), await res.text()).toBe(201)
  return (await res.json()) as T
}
