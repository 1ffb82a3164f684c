/** The live demo's public parts, for other pages that show someone training live. */
export { LiveSessionObserver } from './components/live-session-observer'
export { useLiveSessions, getLiveSessions, liveSessionsQueryOptions, type LiveSession } from './api/get-live-sessions'
