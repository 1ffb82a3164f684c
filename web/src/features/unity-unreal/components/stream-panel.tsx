import { useEffect, useRef } from 'react'
import { Play, X } from 'lucide-react'
import { useLiveSessions } from '@/api/realtime'
import { LiveSessionObserver } from '@/features/live-demo'
import { Button } from '@/components/ui/button'
import type { UnrealProject } from '@/content/unity-unreal'

/**
 * A live project's stream: the most recent running session of its scene,
 * watched as an observer over /ws. The learner can always run the scene
 * themselves, whether or not somebody is training in it.
 */
export function StreamPanel({ project, onClose, onTrain }: { project: UnrealProject; onClose(): void; onTrain(): void }) {
  const sessions = useLiveSessions(true)
  const session = sessions.data?.find((s) => s.moduleId === project.moduleId)
  const headingRef = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    headingRef.current?.focus()
  }, [project.id])

  return (
    <section aria-labelledby="stream-heading" className="mt-10 space-y-3" data-testid="stream-panel">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="stream-heading" ref={headingRef} tabIndex={-1} className="min-w-0 break-words text-2xl font-semibold text-white outline-none">
          Live stream: {project.title}
        </h2>
        <Button variant="ghost" onClick={onClose}>
          <X aria-hidden="true" />
          Close stream
        </Button>
      </div>
      {sessions.isPending ? (
        <p role="status" className="text-slate-300">
          Looking for a live session of this project…
        </p>
      ) : sessions.isError ? (
        <p role="alert" className="text-red-300">
          Could not look up live sessions. Try again in a moment.
        </p>
      ) : session ? (
        <>
          <LiveSessionObserver key={session.id} session={session} />
          {/* Someone else's session takes nothing away: any number of learners can train in the scene at once. */}
          <Button variant="outline" onClick={onTrain}>
            <Play aria-hidden="true" />
            Train in it yourself
          </Button>
        </>
      ) : (
        <div role="status" className="space-y-3 rounded-lg border border-sky-500/40 bg-sky-500/10 p-4 text-sky-100">
          <p>Nobody is training in {project.title} right now, so there is no live session to stream.</p>
          <div className="flex flex-wrap gap-2">
            <Button onClick={onTrain}>
              <Play aria-hidden="true" />
              Train in it yourself
            </Button>
            <Button variant="outline" onClick={() => void sessions.refetch()}>
              Check again
            </Button>
          </div>
        </div>
      )}
    </section>
  )
}
