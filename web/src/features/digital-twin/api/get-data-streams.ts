import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'
import { STREAMS_POLL_MS } from '../lib/equipment'
import { EQUIPMENT_URL } from './get-equipment'

/** One data stream of a twin (seed 001 §3). */
export const dataStreamSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  streamName: z.string(),
  value: z.number(),
  unit: z.string().nullish(),
  previousValue: z.number().nullish(),
  qualityIndicator: z.string().nullish(),
  timestamp: z.string().nullish(),
  /** Past readings, oldest first, bounded by the server's retention. */
  history: z.array(z.looseObject({ value: z.number(), timestamp: z.string().nullish() })).nullish(),
})

export type DataStream = z.infer<typeof dataStreamSchema>

const dataStreamsUrl = (id: string) => `${EQUIPMENT_URL}/${encodeURIComponent(id)}/data-streams`

/** GET /api/digital-twin/equipment/{id}/data-streams (seed 001 §7). */
export async function getDataStreams(id: string): Promise<DataStream[]> {
  const res = await apiRequest('GET', dataStreamsUrl(id))
  return z.array(dataStreamSchema).parse(await res.json())
}

export const dataStreamsQueryKey = (id: string | null) => [EQUIPMENT_URL, id ?? '', 'data-streams'] as const

/**
 * A twin's streams, polled every 2 s only while it is selected (seed 001 §9):
 * with no selection the query is disabled, so nothing is fetched or polled.
 */
export const dataStreamsQueryOptions = (id: string | null) =>
  queryOptions({
    queryKey: dataStreamsQueryKey(id),
    queryFn: () => getDataStreams(id ?? ''),
    enabled: id !== null,
    refetchInterval: id === null ? false : STREAMS_POLL_MS,
  })

export function useDataStreams(id: string | null) {
  return useQuery(dataStreamsQueryOptions(id))
}
