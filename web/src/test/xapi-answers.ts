// The server's answers about the LRS that several tests share.

/** GET /api/organisation/xapi/forwarding for an organisation that forwards nowhere. */
export const unconfiguredForwarding = {
  configured: false,
  endpoint: '',
  key: '',
  version: '',
  paused: false,
  queueLength: 0,
  forwardedThrough: null,
  lastError: '',
  lastErrorAt: null,
  lastSuccessAt: null,
  nextAttemptAt: null,
}
