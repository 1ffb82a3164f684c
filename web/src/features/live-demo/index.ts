/** The live demo's public parts, for other pages that show someone training live. */
export { LiveSessionObserver, type ObservedSession } from './components/live-session-observer'
