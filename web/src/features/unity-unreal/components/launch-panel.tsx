import { useEffect, useRef, useState } from 'react'
import { X } from 'lucide-react'
import { SafetyAlertDialog, useSafetyAlerts } from '@/components/safety-alerts'
import { XRSessionLauncher } from '@/components/xr'
import { Button } from '@/components/ui/button'
import { RealtimeClient } from '@/lib/realtime'

/**
 * A chosen module running in our own WebXR scene player. The session's
 * live updates go out on /ws, so others can watch it from the live demo or
 * a project's stream.
 */
export function LaunchPanel({ moduleId, title, onClose }: { moduleId: string; title: string; onClose(): void }) {
  const [realtime] = useState(() => new RealtimeClient())
  // Once the session's channel is up, safety alerts on it interrupt the learner until acknowledged (spec 001 §7).
  const alerts = useSafetyAlerts(realtime)
  const headingRef = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    headingRef.current?.focus()
  }, [moduleId])
  useEffect(() => () => realtime.disconnect(), [realtime])

  return (
    <section aria-labelledby="launch-heading" className="mt-10 space-y-3" data-testid="launch-panel">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="launch-heading" ref={headingRef} tabIndex={-1} className="min-w-0 break-words text-2xl font-semibold text-white outline-none">
          Scene player: {title}
        </h2>
        <Button variant="ghost" onClick={onClose}>
          <X aria-hidden="true" />
          Close player
        </Button>
      </div>
      <XRSessionLauncher
        key={moduleId}
        moduleId={moduleId}
        title={title}
        realtime={realtime}
        safetyAlerts={alerts}
        // The session's cookie exists once it has started: connect then, so /ws accepts us.
        onSessionStart={() => realtime.connect()}
      />
      <SafetyAlertDialog alerts={alerts} />
    </section>
  )
}
