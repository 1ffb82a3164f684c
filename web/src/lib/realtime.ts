/**
 * The realtime channel (spec 001 §7): one WebSocket to /ws on the page's own
 * host, the message envelope, and reconnects — up to 5 attempts, 3 s apart.
 */

/** The channel's states (spec 001 §4). */
export type RealtimeStatus = 'disconnected' | 'connecting' | 'connected' | 'error'

/** The envelope of every message in both directions. */
export interface RealtimeMessage<P = unknown> {
  type: string
  payload?: P
  sessionId?: string
  userId?: string
  timestamp: string
}

/** Outgoing payloads of spec 001 §7. */
export interface XRSessionUpdatePayload {
  position?: { x: number; y: number; z: number }
  rotation?: { x: number; y: number; z: number; w: number }
  interactions?: unknown[]
}
export type SafetyAlertType = 'emergency' | 'help' | 'equipment' | 'general'
export interface SafetyAlertPayload {
  alertType: SafetyAlertType
  description: string
}
export interface CollaborationPayload {
  action: string
  data?: unknown
}

/** Reconnect policy (spec 001 §9). */
export const MAX_RECONNECT_ATTEMPTS = 5
export const RECONNECT_DELAY_MS = 3000

type Handler = (message: RealtimeMessage) => void
type StatusListener = (status: RealtimeStatus) => void

/** What the client needs of the WebSocket constructor; tests pass a fake. */
export type WebSocketFactory = (url: string) => WebSocket

export interface RealtimeClientOptions {
  url?: string
  maxReconnectAttempts?: number
  reconnectDelayMs?: number
  createSocket?: WebSocketFactory
}

/** The /ws address on the page's host, wss: on https pages. */
export function realtimeUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
  return `${scheme}//${location.host}/ws`
}

/**
 * A WebSocket client with a status, type-keyed subscriptions and bounded
 * reconnects. After the last attempt fails it stays in 'error' until
 * connect() is called again.
 */
export class RealtimeClient {
  private socket: WebSocket | null = null
  private status: RealtimeStatus = 'disconnected'
  private attempts = 0
  private timer: ReturnType<typeof setTimeout> | null = null
  private closedByUser = false
  private readonly handlers = new Map<string, Set<Handler>>()
  private readonly statusListeners = new Set<StatusListener>()
  private readonly url: string
  private readonly maxAttempts: number
  private readonly delayMs: number
  private readonly createSocket: WebSocketFactory

  // The ids sent with every message, set once the learner and session are known.
  private userId: string | undefined
  private sessionId: string | undefined

  constructor(options: RealtimeClientOptions = {}) {
    this.url = options.url ?? realtimeUrl()
    this.maxAttempts = options.maxReconnectAttempts ?? MAX_RECONNECT_ATTEMPTS
    this.delayMs = options.reconnectDelayMs ?? RECONNECT_DELAY_MS
    this.createSocket = options.createSocket ?? ((url) => new WebSocket(url))
  }

  /** Sets the learner sent with every message. */
  setUserId(id: string | undefined): void {
    this.userId = id
  }

  /** Sets the session sent with every message that names none; undefined once it ends. */
  setSessionId(id: string | undefined): void {
    this.sessionId = id
  }

  getStatus(): RealtimeStatus {
    return this.status
  }

  /** Opens the socket unless it is open or opening. */
  connect(): void {
    this.closedByUser = false
    if (this.socket && (this.status === 'connecting' || this.status === 'connected')) return
    this.clearTimer()
    this.open()
  }

  /** Closes the socket for good: no reconnects. */
  disconnect(): void {
    this.closedByUser = true
    this.clearTimer()
    this.attempts = 0
    const socket = this.socket
    this.socket = null
    if (socket && socket.readyState <= 1) socket.close(1000, 'client closed')
    this.setStatus('disconnected')
  }

  /**
   * Sends a message in the envelope. Returns false, with a console warning,
   * when the channel is not connected (spec 001 §8): nothing is queued.
   */
  send<P>(type: string, payload: P, sessionId = this.sessionId): boolean {
    const socket = this.socket
    if (!socket || this.status !== 'connected' || socket.readyState !== 1) {
      console.warn(`Realtime channel not connected; ${type} message not sent`)
      return false
    }
    const message: RealtimeMessage<P> = { type, payload, sessionId, userId: this.userId, timestamp: new Date().toISOString() }
    socket.send(JSON.stringify(message))
    return true
  }

  sendSessionUpdate(payload: XRSessionUpdatePayload): boolean {
    return this.send('xr_session_update', payload)
  }

  sendSafetyAlert(payload: SafetyAlertPayload): boolean {
    return this.send('safety_alert', payload)
  }

  sendCollaborationUpdate(payload: CollaborationPayload): boolean {
    return this.send('collaboration_update', payload)
  }

  /** Calls handler for every incoming message of this type; returns the unsubscribe. */
  subscribe<P = unknown>(type: string, handler: (message: RealtimeMessage<P>) => void): () => void {
    let set = this.handlers.get(type)
    if (!set) {
      set = new Set()
      this.handlers.set(type, set)
    }
    set.add(handler as Handler)
    return () => {
      set.delete(handler as Handler)
    }
  }

  /** Calls listener on every status change; returns the unsubscribe. */
  onStatus(listener: StatusListener): () => void {
    this.statusListeners.add(listener)
    return () => {
      this.statusListeners.delete(listener)
    }
  }

  private open(): void {
    this.setStatus('connecting')
    let socket: WebSocket
    try {
      socket = this.createSocket(this.url)
    } catch (err) {
      console.error('Realtime channel could not open', err)
      this.failed()
      return
    }
    this.socket = socket
    socket.onopen = () => {
      if (this.socket !== socket) return
      this.attempts = 0
      this.setStatus('connected')
    }
    socket.onmessage = (event: MessageEvent) => {
      if (this.socket !== socket) return
      this.dispatch(event.data)
    }
    socket.onerror = () => {
      // The close event that follows decides whether to retry.
    }
    socket.onclose = () => {
      if (this.socket !== socket) return
      this.socket = null
      if (this.closedByUser) {
        this.setStatus('disconnected')
        return
      }
      this.failed()
    }
  }

  private failed(): void {
    if (this.attempts >= this.maxAttempts) {
      this.setStatus('error')
      return
    }
    this.attempts++
    this.setStatus('disconnected')
    this.timer = setTimeout(() => {
      this.timer = null
      if (!this.closedByUser) this.open()
    }, this.delayMs)
  }

  private dispatch(data: unknown): void {
    if (typeof data !== 'string') return
    let message: RealtimeMessage
    try {
      message = JSON.parse(data) as RealtimeMessage
    } catch {
      console.warn('Realtime channel: ignored a message that is not JSON')
      return
    }
    if (!message || typeof message.type !== 'string') return
    for (const handler of this.handlers.get(message.type) ?? []) {
      try {
        handler(message)
      } catch (err) {
        console.error(`Realtime handler for ${message.type} failed`, err)
      }
    }
  }

  private setStatus(status: RealtimeStatus): void {
    if (this.status === status) return
    this.status = status
    for (const listener of this.statusListeners) listener(status)
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }
}
