import { useState } from 'react'
import { Link } from 'wouter'
import { Rocket } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { SafetyAlertDialog, useSafetyAlerts } from '@/components/safety-alerts'
import { XRSessionLauncher, useXRCapabilities } from '@/components/xr'
import type { RealtimeStatus } from '@/lib/realtime'
import { useRealtimeClient } from '@/lib/use-realtime'
import { cn } from '@/lib/utils'

/** How each realtime state reads on the badge (spec 001 §4: disconnected, connecting, connected, error). */
export const realtimeStateLabel: Record<RealtimeStatus, string> = {
  disconnected: 'Realtime: disconnected',
  connecting: 'Realtime: connecting',
  connected: 'Realtime: connected',
  error: 'Realtime: error',
}

interface LaunchPanelProps {
  userId: string | undefined
  modules: { id: string; title: string }[]
  onSessionEnd?: () => void
}

/**
 * The hub's XR session launcher: pick one of the next modules and train here,
 * in VR, AR or on the desktop. Nothing is preselected: the module's content
 * and the 3D scene load only once the learner picks one.
 */
export function LaunchPanel({ userId, modules, onSessionEnd }: LaunchPanelProps) {
  const { client, status } = useRealtimeClient(userId)
  // Safety alerts on the channel interrupt the learner until acknowledged (spec 001 §7).
  const alerts = useSafetyAlerts(client)
  const caps = useXRCapabilities()
  const [chosen, setChosen] = useState<string | null>(null)
  const module = modules.find((m) => m.id === chosen)

  return (
    <section aria-labelledby="launch-heading" className="mt-12 rounded-xl border border-amber-500/40 bg-slate-900/70 p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="launch-heading" className="flex items-center gap-2 text-2xl font-semibold text-white">
          <Rocket className="h-6 w-6 text-amber-400" aria-hidden="true" />
          Launch a training session
        </h2>
        <Badge variant={status === 'connected' ? 'secondary' : 'outline'} data-testid="hub-realtime-state" data-state={status}>
          {realtimeStateLabel[status]}
        </Badge>
      </div>
      <p className="mt-2 text-sm text-slate-300">Your next modules, ready to run here in VR, AR or on the desktop.</p>
      <div className="mt-4 flex flex-wrap gap-2" role="group" aria-label="Module to launch">
        {modules.map((m) => (
          <Button
            key={m.id}
            size="sm"
            variant={m.id === module?.id ? 'default' : 'secondary'}
            aria-pressed={m.id === module?.id}
            // Long titles wrap inside the button instead of widening the page on a phone.
            className={cn('h-auto min-h-9 max-w-full whitespace-normal py-2 text-left', m.id === module?.id && 'ring-1 ring-amber-300')}
            onClick={() => setChosen(m.id)}
          >
            {m.title}
          </Button>
        ))}
        <Button asChild size="sm" variant="outline" className="h-auto min-h-9 max-w-full whitespace-normal py-2 text-left">
          <Link href="/xr-training">Open the XR Training Center</Link>
        </Button>
      </div>
      {!module && modules.length > 0 ? (
        <p className="mt-4 text-sm text-slate-300" data-testid="hub-no-module">
          Choose a module above to load its 3D scene and start a session.
        </p>
      ) : null}
      {module ? (
        <XRSessionLauncher
          key={module.id}
          className="mt-6"
          moduleId={module.id}
          title={module.title}
          userId={userId}
          capabilities={caps}
          realtime={client}
          safetyAlerts={alerts}
          onSessionEnd={onSessionEnd}
        />
      ) : null}
      <SafetyAlertDialog alerts={alerts} />
    </section>
  )
}
