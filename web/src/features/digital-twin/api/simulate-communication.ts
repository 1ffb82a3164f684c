import { useMutation } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'
import { EQUIPMENT_URL } from './get-equipment'

/** One frame on the wire: its bytes in hex and its decoded fields. */
const frameSchema = z.looseObject({
  direction: z.string().nullish(),
  length: z.number().nullish(),
  hex: z.string(),
  summary: z.string().nullish(),
  fields: z.array(z.looseObject({ name: z.string(), value: z.unknown() })).nullish(),
})

/**
 * The real exchange with the twin's simulated device: the request and the
 * response frame (none for MQTT QoS 0), the whole conversation, and what
 * the client library decoded.
 */
export const protocolExchangeSchema = z.looseObject({
  protocol: z.string(),
  equipmentId: z.string().nullish(),
  device: z.string().nullish(),
  client: z.string().nullish(),
  request: frameSchema,
  response: frameSchema.nullish(),
  frames: z.array(frameSchema).nullish(),
  result: z.unknown().optional(),
  durationMs: z.number().nullish(),
  timestamp: z.string().nullish(),
})

export type ProtocolExchange = z.infer<typeof protocolExchangeSchema>
export type ProtocolFrame = z.infer<typeof frameSchema>

/** POST /api/digital-twin/equipment/{id}/simulate-communication {protocol, data} (seed 001 §7). */
export async function simulateCommunication(id: string, protocol: string, data: Record<string, unknown>): Promise<ProtocolExchange> {
  const res = await apiRequest('POST', `${EQUIPMENT_URL}/${encodeURIComponent(id)}/simulate-communication`, { protocol, data })
  return protocolExchangeSchema.parse(await res.json())
}

/** Test Protocol. */
export function useSimulateCommunication() {
  return useMutation({
    mutationFn: ({ id, protocol, data }: { id: string; protocol: string; data: Record<string, unknown> }) =>
      simulateCommunication(id, protocol, data),
  })
}
