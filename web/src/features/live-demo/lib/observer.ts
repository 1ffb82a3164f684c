import type { RealtimeMessage } from '@/lib/realtime'

/** Updates kept on screen, newest first. */
export const KEEP_UPDATES = 8

export interface Vec3 {
  x: number
  y: number
  z: number
}

/** One xr_session_update as the observer view lists it. */
export interface ObservedUpdate {
  key: string
  at: string
  position?: Vec3
  /** A short text per interaction: its action and what it acted on. */
  interactions: string[]
}

/** What an observer knows of the room it watches. */
export interface ObserverState {
  phase: 'connecting' | 'watching' | 'error'
  participants: number
  observers: number
  received: number
  position?: Vec3
  updates: ObservedUpdate[]
  /** The server's last complaint (an error message), shown as is. */
  error?: string
}

export const initialObserverState: ObserverState = { phase: 'connecting', participants: 0, observers: 0, received: 0, updates: [] }

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

function vec3(v: unknown): Vec3 | undefined {
  if (!v || typeof v !== 'object') return undefined
  const { x, y, z } = v as Record<string, unknown>
  return isNum(x) && isNum(y) && isNum(z) ? { x, y, z } : undefined
}

/** A one-line description of an interaction: 'click · breaker-panel (step isolate)'. */
export function describeInteraction(i: unknown): string {
  if (!i || typeof i !== 'object') return 'interaction'
  const { action, objectId, stepId } = i as Record<string, unknown>
  let text = typeof action === 'string' && action ? action : 'interaction'
  if (typeof objectId === 'string' && objectId) text += ` · ${objectId}`
  if (typeof stepId === 'string' && stepId) text += ` (step ${stepId})`
  return text
}

/** A position as '(x, y, z)' in metres with two decimals. */
export const formatPosition = (p: Vec3) => `(${p.x.toFixed(2)}, ${p.y.toFixed(2)}, ${p.z.toFixed(2)}) m`

function counts(payload: unknown): { participants: number; observers: number } | undefined {
  if (!payload || typeof payload !== 'object') return undefined
  const { participants, observers } = payload as Record<string, unknown>
  return isNum(participants) && isNum(observers) ? { participants, observers } : undefined
}

/**
 * Folds one message from the watched room into the observer's state:
 * joined and presence carry the room's membership, xr_session_update the
 * trainee's position and interactions, error the server's complaint.
 * Messages of other sessions are ignored.
 */
export function observe(state: ObserverState, m: RealtimeMessage, sessionId: string): ObserverState {
  if (m.sessionId && m.sessionId !== sessionId && m.type !== 'error') return state
  switch (m.type) {
    case 'joined':
    case 'presence': {
      const c = counts(m.payload)
      return { ...state, ...(c ?? {}), phase: 'watching', error: undefined }
    }
    case 'xr_session_update': {
      const p = (m.payload ?? {}) as { position?: unknown; interactions?: unknown }
      const position = vec3(p.position)
      const interactions = Array.isArray(p.interactions) ? p.interactions.map(describeInteraction) : []
      const received = state.received + 1
      const update: ObservedUpdate = { key: `${received}`, at: m.timestamp, position, interactions }
      return {
        ...state,
        received,
        position: position ?? state.position,
        updates: [update, ...state.updates].slice(0, KEEP_UPDATES),
      }
    }
    case 'error': {
      const message = (m.payload as { message?: unknown } | undefined)?.message
      const error = typeof message === 'string' ? message : 'The realtime channel refused the request.'
      // Before the join succeeded an error means we are not watching at all.
      return { ...state, error, phase: state.phase === 'watching' ? 'watching' : 'error' }
    }
    default:
      return state
  }
}
