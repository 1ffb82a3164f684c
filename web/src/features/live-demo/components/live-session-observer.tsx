import { Eye, Radio, Users } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { useSessionObserver } from '../hooks/use-session-observer'
import { formatPosition } from '../lib/observer'
import type { LiveSession } from '@/api/realtime'

/** What the observer needs of a session: any running session's summary will do, the demo's or the portal's. */
export type ObservedSession = Pick<LiveSession, 'id' | 'moduleId' | 'moduleTitle' | 'sessionType'>

/**
 * The observer view of one running XR session: who is in the room and the
 * trainee's live position and interactions as the session's own
 * xr_session_update messages arrive on /ws.
 */
export function LiveSessionObserver({ session, headingLevel = 3 }: { session: ObservedSession; headingLevel?: 2 | 3 | 4 }) {
  const { state, status } = useSessionObserver(session.id)
  const Heading = `h${headingLevel}` as 'h2' | 'h3' | 'h4'
  const title = session.moduleTitle || session.moduleId

  return (
    <section aria-labelledby={`observe-${session.id}`} className="space-y-3 rounded-lg border border-white/10 bg-slate-900/70 p-4" data-testid="session-observer">
      <div className="flex flex-wrap items-center gap-2">
        <Heading id={`observe-${session.id}`} className="text-lg font-semibold text-white">
          Watching: {title}
        </Heading>
        <Badge variant="live">
          <Radio className="mr-1 h-3 w-3" aria-hidden="true" />
          {session.sessionType.toUpperCase()}
        </Badge>
      </div>
      <p role="status" className="text-sm text-slate-300">
        {state.phase === 'error'
          ? `Could not join this session: ${state.error ?? 'the realtime channel refused.'}`
          : state.phase === 'watching'
            ? `Joined as an observer · ${state.received} live update${state.received === 1 ? '' : 's'} received`
            : status === 'error'
              ? 'The realtime channel is unreachable. Try again later.'
              : 'Connecting to the live session…'}
      </p>
      {state.phase === 'watching' ? (
        <dl className="grid gap-3 text-sm sm:grid-cols-3">
          <div>
            <dt className="flex items-center gap-1 text-slate-400">
              <Users className="h-4 w-4" aria-hidden="true" />
              Trainees in the room
            </dt>
            <dd className="font-semibold text-white">{state.participants}</dd>
          </div>
          <div>
            <dt className="flex items-center gap-1 text-slate-400">
              <Eye className="h-4 w-4" aria-hidden="true" />
              Observers
            </dt>
            <dd className="font-semibold text-white">{state.observers}</dd>
          </div>
          <div>
            <dt className="text-slate-400">Trainee position</dt>
            <dd className="font-semibold tabular-nums text-white" data-testid="observed-position">
              {state.position ? formatPosition(state.position) : 'Waiting for movement'}
            </dd>
          </div>
        </dl>
      ) : null}
      {state.updates.length > 0 ? (
        <ol aria-label="Latest live updates" className="space-y-1 text-sm" data-testid="observed-updates">
          {state.updates.map((u) => (
            <li key={u.key} className="rounded border border-white/10 px-2 py-1 text-slate-200">
              <time dateTime={u.at} className="mr-2 text-slate-400">
                {new Date(u.at).toLocaleTimeString()}
              </time>
              {u.interactions.length ? u.interactions.join(', ') : u.position ? `moved to ${formatPosition(u.position)}` : 'update'}
            </li>
          ))}
        </ol>
      ) : state.phase === 'watching' ? (
        <p className="text-sm text-slate-400">No activity yet: updates appear here as the trainee works through the scene.</p>
      ) : null}
    </section>
  )
}
