import { apiRequest } from '@/lib/api'
import {
  sessionRecordSchema,
  xrContentSchema,
  type Interaction,
  type Pose,
  type SafetyCheckResult,
  type SessionRecord,
  type SessionType,
  type XRContent,
} from '@/components/xr/types'

/** Query key and fetcher of a module's XR content (called only once a module is chosen). */
export function xrContentQueryKey(moduleId: string) {
  return ['/api/training-modules', moduleId, 'xr-content'] as const
}

export async function fetchXRContent(moduleId: string): Promise<XRContent> {
  const res = await apiRequest('GET', `/api/training-modules/${encodeURIComponent(moduleId)}/xr-content`)
  return xrContentSchema.parse(await res.json())
}

export interface NewSessionInput {
  moduleId: string
  sessionType: SessionType
  deviceType: string
  startedAt: string
  userId?: string
}

/** POST /api/xr-sessions: the response's id is the session id. */
export async function startSession(input: NewSessionInput): Promise<SessionRecord> {
  const res = await apiRequest('POST', '/api/xr-sessions', input)
  return sessionRecordSchema.parse(await res.json())
}

export interface SessionUpdateInput {
  position?: Pose['position']
  rotation?: Pose['rotation']
  interactionData: { interactions: Interaction[]; safetyChecks: SafetyCheckResult[] }
  /** Seconds since the session started. */
  duration: number
}

/** PATCH /api/xr-sessions/{id}: the periodic update after each recorded interaction. */
export async function updateSession(id: string, update: SessionUpdateInput): Promise<SessionRecord> {
  const res = await apiRequest('PATCH', `/api/xr-sessions/${encodeURIComponent(id)}`, update)
  return sessionRecordSchema.parse(await res.json())
}

/** PATCH /api/xr-sessions/{id} with endedAt: ends the session; the server scores it. */
export async function endSession(
  id: string,
  end: SessionUpdateInput & { endedAt: string; extra?: Record<string, unknown> },
): Promise<SessionRecord> {
  const { extra, ...fields } = end
  const res = await apiRequest('PATCH', `/api/xr-sessions/${encodeURIComponent(id)}`, {
    ...extra,
    ...fields,
    completionStatus: 'completed',
  })
  return sessionRecordSchema.parse(await res.json())
}
