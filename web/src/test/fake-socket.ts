import { act } from '@testing-library/react'

/** A message the page sent on the channel, decoded. */
export interface SentMessage {
  type: string
  sessionId?: string
  payload?: unknown
}

/**
 * A WebSocket the test drives: it records what the app sends, and the test
 * opens it, delivers messages and drops it. Every socket made since the last
 * reset is in `all`, so a test can find the app's channel and its
 * reconnections. What a socket's events set off runs inside act, as React
 * state changes must in a test.
 */
export class FakeSocket {
  static all: FakeSocket[] = []
  /** Whether a new socket opens by itself on the next microtask, as one to a reachable server does. */
  static opensItself = false

  /** Forgets earlier sockets; call it before each test. */
  static reset({ opensItself = false } = {}) {
    FakeSocket.all = []
    FakeSocket.opensItself = opensItself
  }

  /** The socket made last. */
  static last(): FakeSocket {
    const socket = FakeSocket.all.at(-1)
    if (!socket) throw new Error('no socket was made')
    return socket
  }

  readyState = 0
  /** The raw frames sent, in order. */
  sent: string[] = []
  closed: { code?: number; reason?: string } | null = null
  onopen: (() => void) | null = null
  onclose: (() => void) | null = null
  onerror: (() => void) | null = null
  onmessage: ((event: { data: unknown }) => void) | null = null

  constructor(public url = '') {
    FakeSocket.all.push(this)
    if (FakeSocket.opensItself) {
      queueMicrotask(() => {
        if (this.readyState === 0) this.open()
      })
    }
  }

  /** What was sent, decoded. */
  get messages(): SentMessage[] {
    return this.sent.map((frame) => JSON.parse(frame) as SentMessage)
  }

  send(data: string) {
    this.sent.push(data)
  }

  close(code?: number, reason?: string) {
    this.closed = { code, reason }
    this.readyState = 3
    act(() => this.onclose?.())
  }

  open() {
    this.readyState = 1
    act(() => this.onopen?.())
  }

  /** The server's side going away. */
  drop() {
    this.readyState = 3
    act(() => {
      this.onerror?.()
      this.onclose?.()
    })
  }

  /** Delivers a message: an object is sent as JSON, a string as it is. */
  receive(data: unknown) {
    act(() => this.onmessage?.({ data: typeof data === 'string' ? data : JSON.stringify(data) }))
  }
}
