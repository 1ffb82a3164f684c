import { Suspense, useCallback, useEffect, useRef, useState } from 'react'
import { Glasses, Megaphone, Monitor, OctagonX, Smartphone, Square, X } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { safetyAlertText, type SafetyAlertState } from '@/components/safety-alerts'
import { toast } from '@/hooks/use-toast'
import type { RealtimeClient, RealtimeMessage } from '@/lib/realtime'
import { cn } from '@/lib/utils'
import { SceneErrorBoundary } from '@/components/xr/scene-error-boundary'
import { SessionVerification } from '@/components/xr/session-verification'
import { ScenePlayer, preloadScenePlayer } from '@/components/xr/scene-player-lazy'
import type { ScenePlayerHandle } from '@/components/xr/scene-player-types'
import { StepList } from '@/components/xr/step-list'
import {
  activate,
  currentStep,
  decidedSafetyChecks,
  isFinished,
  newRun,
  safetyScore,
  sessionMinutes,
  skip,
  stepReadyInMs,
  type TrainingRun,
} from '@/components/xr/training-run'
import type { InputKind, Scene, SessionRecord, SessionType } from '@/components/xr/types'
import { useXRCapabilities, type XRCapabilities } from '@/components/xr/use-xr-capabilities'
import { useXRContent } from '@/api/catalog'
import { ApiError } from '@/lib/api'
import { useEndSession, useEndSessionOnLeave, useStartSession, useUpdateSession, type Interaction, type SessionEndInput } from '@/api/xr-sessions'

/** The title the launch panel shows when none is given (spec 001 §2). */
export const DEFAULT_MODULE_TITLE = 'Training Module'
/** The module id the launch panel shows while no module is selected (spec 001 §2: the center's module id defaults to 'default'). */
export const DEFAULT_MODULE_ID = 'default'
/** Interactions one update may carry (internal/training MaxInteractionsPerUpdate). */
const MAX_INTERACTIONS_PER_UPDATE = 100

export interface XRSessionLauncherProps {
  /** The catalog module to train in; its XR content is fetched, and the 3D player loaded, only when set ('' = none selected). */
  moduleId: string
  /** Shown as the panel's title; defaults to 'Training Module'. */
  title?: string
  /** Shown as the scene's address; defaults to the one the module's XR content names. */
  sceneUrl?: string
  /** The learner's id, sent with the record as the spec's clients do (the server uses the caller). */
  userId?: string
  /** The browser's XR capabilities, if the host already checked them; otherwise the launcher checks. */
  capabilities?: XRCapabilities
  /** The realtime channel for live xr_session_update messages, if the host has one. */
  realtime?: RealtimeClient | null
  /**
   * The host's received safety alerts (useSafetyAlerts). The host's dialog
   * shows them on the page; during an immersive session the scene shows the
   * current one as well, with its own Acknowledge button.
   */
  safetyAlerts?: SafetyAlertState | null
  onSessionStart?(record: SessionRecord): void
  /** Called with the stored record after End Session succeeds. */
  onSessionEnd?(record: SessionRecord): void
  className?: string
}

interface ActiveSession {
  record: SessionRecord
  type: SessionType
  scene: Scene
  run: TrainingRun
}

const modes: { type: SessionType; label: string; icon: typeof Glasses }[] = [
  { type: 'vr', label: 'VR Mode', icon: Glasses },
  { type: 'ar', label: 'AR Mode', icon: Smartphone },
  { type: 'desktop', label: 'Desktop Mode', icon: Monitor },
]

interface ModeButtonProps {
  mode: (typeof modes)[number]
  unavailable: boolean
  disabled: boolean
  onStart(type: SessionType): Promise<void>
}

function ModeButton({ mode: { type, label, icon: Icon }, unavailable, disabled, onStart }: ModeButtonProps) {
  return (
    <Button
      variant={type === 'desktop' ? 'default' : 'outline'}
      data-mode={type}
      disabled={disabled || unavailable}
      onClick={() => void onStart(type)}
      title={unavailable ? 'This browser reports no immersive VR support' : undefined}
    >
      <Icon aria-hidden="true" />
      {label}
    </Button>
  )
}

/** What an instructor's message or stop carries (internal/portal): the text or reason, and who sent it. */
interface InstructorPayload {
  text?: unknown
  reason?: unknown
  from?: { userId?: unknown; displayName?: unknown }
}

/** An instructor's word to the learner in this session: a message, or why they stopped it. */
export interface InstructorNotice {
  from: string
  text: string
}

/** Reads an instructor_message or instructor_stop payload; a missing name reads as "Your instructor". */
export function instructorNotice(m: RealtimeMessage<InstructorPayload | undefined>, field: 'text' | 'reason'): InstructorNotice {
  const p = m.payload ?? {}
  const name = p.from?.displayName
  const value = p[field]
  return { from: typeof name === 'string' && name ? name : 'Your instructor', text: typeof value === 'string' ? value : '' }
}

function formatClock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}

/**
 * The reusable XR session launcher (spec 001 §2): VR, AR and Desktop modes,
 * the 3D scene player, the step list, and the session record's lifecycle —
 * start, an update after every recorded interaction, and End Session.
 */
export function XRSessionLauncher(props: XRSessionLauncherProps) {
  const { moduleId, userId, realtime, safetyAlerts, onSessionStart, onSessionEnd } = props
  const ownCaps = useXRCapabilities()
  const caps = props.capabilities ?? ownCaps
  const content = useXRContent(moduleId)
  const { mutateAsync: startSession } = useStartSession()
  const { mutateAsync: updateSession } = useUpdateSession()
  const { mutateAsync: endSession } = useEndSession()

  const [active, setActiveState] = useState<ActiveSession | null>(null)
  const activeRef = useRef<ActiveSession | null>(null)
  const setActive = useCallback((a: ActiveSession | null) => {
    activeRef.current = a
    setActiveState(a)
  }, [])
  const [phase, setPhase] = useState<'idle' | 'starting' | 'ending'>('idle')
  const [lastResult, setLastResult] = useState<SessionRecord | null>(null)
  const [hovered, setHovered] = useState<string | null>(null)
  const [now, setNow] = useState(() => Date.now())
  const player = useRef<ScenePlayerHandle | null>(null)
  const endButton = useRef<HTMLButtonElement>(null)
  const modeGroup = useRef<HTMLDivElement>(null)
  const [playerReady, setPlayerReady] = useState(false)
  const acked = useRef(0) // interactions the server has stored, by seq
  const updates = useRef<Promise<void>>(Promise.resolve())
  const [instructorMessage, setInstructorMessage] = useState<InstructorNotice | null>(null)
  const [stoppedBy, setStoppedBy] = useState<InstructorNotice | null>(null)
  // An instructor's stop ends the session through End Session's own code, as it stands at the latest render.
  const endSessionRef = useRef<(stoppedBy?: InstructorNotice) => Promise<void>>(() => Promise.resolve())

  // The 3D player's chunk (three.js) downloads alongside the module's content, never before a module is chosen.
  useEffect(() => {
    if (moduleId) void preloadScenePlayer()
  }, [moduleId])

  useEffect(() => {
    if (!active) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [active])

  // Re-render the moment the current step can be completed, not at the next tick.
  const activeRun = active?.run
  const activeScene = active?.scene
  useEffect(() => {
    if (!activeRun || !activeScene) return
    const wait = stepReadyInMs(activeScene, activeRun, Date.now())
    if (wait <= 0) return
    const timer = setTimeout(() => setNow(Date.now()), wait)
    return () => clearTimeout(timer)
  }, [activeRun, activeScene])

  const onReady = useCallback((handle: ScenePlayerHandle | null) => {
    player.current = handle
    setPlayerReady(handle !== null)
  }, [])

  const pose = () => player.current?.getPose()

  /** Sends every interaction the server has not stored yet, at most 100 per request. */
  const flush = useCallback(async (a: ActiveSession) => {
    while (activeRef.current?.record.id === a.record.id) {
      const cur = activeRef.current
      const pending = cur.run.interactions.slice(acked.current, acked.current + MAX_INTERACTIONS_PER_UPDATE)
      if (pending.length === 0) return
      const p = pose()
      await updateSession({
        id: cur.record.id,
        update: {
          position: p?.position,
          rotation: p?.rotation,
          interactionData: { interactions: pending, safetyChecks: decidedSafetyChecks(cur.scene, cur.run) },
          duration: Math.round((Date.now() - Date.parse(cur.record.startedAt)) / 1000),
        },
      })
      acked.current = pending[pending.length - 1].seq + 1
    }
  }, [updateSession])

  /** The end of session a, at endedAtMs, carrying the interactions the server has not stored. */
  const endOf = (a: ActiveSession, endedAtMs: number, pending: Interaction[]): SessionEndInput => {
    const p = pose()
    return {
      endedAt: new Date(endedAtMs).toISOString(),
      duration: Math.round((endedAtMs - a.run.startedAtMs) / 1000),
      position: p?.position,
      rotation: p?.rotation,
      interactionData: { interactions: pending, safetyChecks: decidedSafetyChecks(a.scene, a.run) },
      extra: { moduleId: a.record.moduleId, sessionType: a.type },
    }
  }

  /** The session is over here: out of XR, off the realtime room, the scene cleared. */
  const closeSession = () => {
    player.current?.exitXR()
    setActive(null)
    realtime?.setSessionId(undefined)
  }

  // Leaving midway ends the session as End Session would, with what one request may carry.
  useEndSessionOnLeave(() => {
    const a = activeRef.current
    if (!a) return null
    closeSession()
    return { id: a.record.id, end: endOf(a, Date.now(), a.run.interactions.slice(acked.current, acked.current + MAX_INTERACTIONS_PER_UPDATE)) }
  })

  /** Queues an update after a recorded interaction; failures are only logged (spec 001 §8). */
  const sendUpdate = useCallback(() => {
    const a = activeRef.current
    if (!a) return // updates with no active session are ignored
    updates.current = updates.current.then(() => flush(a)).catch((err) => console.error('XR session update failed', err))
  }, [flush])

  const record = useCallback(
    (run: TrainingRun, interaction: TrainingRun['interactions'][number] | undefined) => {
      const a = activeRef.current
      if (!a || !interaction) return
      setActive({ ...a, run })
      setNow(Date.now())
      sendUpdate()
      const p = pose()
      realtime?.sendSessionUpdate({ position: p?.position, rotation: p?.rotation, interactions: [interaction] })
    },
    [realtime, sendUpdate, setActive],
  )

  const onActivate = useCallback(
    (objectId: string, input: InputKind) => {
      const a = activeRef.current
      if (!a) return
      const r = activate(a.scene, a.run, objectId, input, Date.now())
      record(r.run, r.interaction)
    },
    [record],
  )

  const onSkip = useCallback(
    (input: InputKind = 'keyboard') => {
      const a = activeRef.current
      if (!a) return
      const r = skip(a.scene, a.run, input, Date.now())
      record(r.run, r.interaction)
    },
    [record],
  )

  async function start(type: SessionType) {
    const scene = content.data?.scene
    if (!scene || activeRef.current || phase !== 'idle') return
    setPhase('starting')
    setLastResult(null)
    setInstructorMessage(null)
    setStoppedBy(null)
    const startedAtMs = Date.now()
    let running: SessionType = type
    let fellBack = false
    if (type !== 'desktop') {
      // Requested first, while the click still counts as a user gesture.
      const supported = type === 'vr' ? caps.supportsVR : caps.supportsAR
      try {
        if (!supported || !player.current) throw new Error(`immersive-${type} is not supported here`)
        await player.current.enterXR(type === 'vr' ? 'immersive-vr' : 'immersive-ar')
      } catch (err) {
        console.warn('WebXR session request failed; continuing on desktop', err)
        running = 'desktop'
        fellBack = true
      }
    }
    let rec: SessionRecord
    try {
      rec = await startSession({
        moduleId,
        sessionType: running,
        deviceType: navigator.userAgent,
        startedAt: new Date(startedAtMs).toISOString(),
        ...(userId ? { userId } : {}),
      })
    } catch (err) {
      player.current?.exitXR()
      setPhase('idle')
      toast({ variant: 'destructive', title: 'Session Failed', description: 'Could not start training session' })
      console.error('Could not start training session', err)
      return
    }
    acked.current = 0
    updates.current = Promise.resolve()
    // sessionTime counts from the server's acknowledgement, not the click:
    // entering XR and the request itself take time the server did not see,
    // and a clock ahead of the server's leaves the session unverified.
    setActive({ record: rec, type: running, scene, run: newRun(scene, Date.now()) })
    setNow(Date.now())
    setPhase('idle')
    realtime?.setSessionId(rec.id)
    toast({ title: 'Training Session Started', description: `${running.toUpperCase()} session is now active` })
    if (fellBack) toast({ title: 'XR Mode Unavailable', description: 'Falling back to desktop mode' })
    onSessionStart?.(rec)
  }

  /** Ends the running session: End Session, or an instructor's stop (stoppedBy), which the toast names instead of a completion. */
  async function end(stoppedBy?: InstructorNotice) {
    const a = activeRef.current
    if (!a || phase !== 'idle') return
    setPhase('ending')
    await updates.current
    const cur = activeRef.current ?? a
    const endedAtMs = Date.now()
    const durationMs = endedAtMs - cur.run.startedAtMs
    try {
      // Whatever the periodic updates could not store goes with the end, 100 at a time.
      let pending = cur.run.interactions.slice(acked.current)
      while (pending.length > MAX_INTERACTIONS_PER_UPDATE) {
        await flush(cur)
        pending = cur.run.interactions.slice(acked.current)
      }
      const stored = await endSession({ id: cur.record.id, end: endOf(cur, endedAtMs, pending) })
      closeSession()
      setPhase('idle')
      setLastResult(stored)
      toast(
        stoppedBy
          ? { title: 'Session Stopped', description: `${stoppedBy.from} stopped this session${stoppedBy.text ? `: ${stoppedBy.text}` : ''}` }
          : { title: 'Session Completed', description: `Training session lasted ${sessionMinutes(durationMs)} minutes` },
      )
      onSessionEnd?.(stored)
    } catch (err) {
      setPhase('idle')
      if (err instanceof ApiError && err.status === 409) {
        // Ended already: by the server after a day without an update, or by an instructor's stop that crossed this end.
        closeSession()
        toast({ title: 'Session Already Ended', description: err.serverMessage })
        return
      }
      // The session stays active so the learner can try End Session again.
      toast({ variant: 'destructive', title: 'Session End Error', description: 'Could not properly end session' })
      console.error('Could not properly end session', err)
    }
  }

  useEffect(() => {
    endSessionRef.current = end
  })

  // End Session goes away with the session: focus, if it was lost with it, moves to the mode the
  // session ran in, to start another.
  const runningType = active?.type
  const lastType = useRef<SessionType | undefined>(undefined)
  useEffect(() => {
    const ended = lastType.current !== undefined && runningType === undefined
    const type = lastType.current
    lastType.current = runningType
    if (!ended || (document.activeElement && document.activeElement !== document.body)) return
    modeGroup.current?.querySelector<HTMLButtonElement>(`button[data-mode="${type}"]:not(:disabled)`)?.focus({ preventScroll: true })
  }, [runningType])

  // The running session's room on /ws: joined as its participant (again after every reconnect), so an
  // instructor observing it can send the learner a message or a stop; left when the session ends.
  const activeId = active?.record.id
  useEffect(() => {
    if (!realtime || !activeId) return
    const join = () => realtime.send('join', { role: 'participant' }, activeId)
    if (realtime.getStatus() === 'connected') join()
    const offs = [
      realtime.onStatus((status) => {
        if (status === 'connected') join()
      }),
      realtime.subscribe<InstructorPayload | undefined>('instructor_message', (m) => {
        if (m.sessionId !== activeId) return
        const notice = instructorNotice(m, 'text')
        setInstructorMessage(notice)
        toast({ title: `Message from ${notice.from}`, description: notice.text })
      }),
      realtime.subscribe<InstructorPayload | undefined>('instructor_stop', (m) => {
        if (m.sessionId !== activeId) return
        const notice = instructorNotice(m, 'reason')
        setStoppedBy(notice)
        void endSessionRef.current(notice)
      }),
    ]
    return () => {
      offs.forEach((off) => off())
      if (realtime.getStatus() === 'connected') realtime.send('leave', {}, activeId)
    }
  }, [realtime, activeId])

  const scene = active?.scene ?? content.data?.scene
  const step = active ? currentStep(active.scene, active.run) : undefined
  const readyInMs = active ? stepReadyInMs(active.scene, active.run, now) : 0
  const finished = active ? isFinished(active.scene, active.run) : false
  const title = props.title || DEFAULT_MODULE_TITLE
  const sceneUrl = props.sceneUrl || content.data?.sceneUrl
  const busy = phase !== 'idle'
  const alert = safetyAlerts?.current

  return (
    <Card className={cn('border-white/10 bg-slate-900/60', props.className)}>
      <CardHeader>
        <CardTitle as="h2" className="text-white">
          {title}
        </CardTitle>
        <CardDescription>
          <span className="block">
            Module ID: <code className="text-slate-200">{moduleId || DEFAULT_MODULE_ID}</code>
          </span>
          {sceneUrl ? (
            <span className="block">
              Scene: <code className="text-slate-200">{sceneUrl}</code>
            </span>
          ) : null}
          {content.data ? <span className="mt-1 block text-slate-300">{content.data.scene.title}</span> : null}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {!moduleId ? (
          <p className="text-sm text-slate-300" data-testid="no-module-selected">
            Select a training module to load its 3D scene.
          </p>
        ) : null}
        {content.isError ? (
          <p role="alert" className="text-sm text-red-300">
            This module has no XR scene to load. Choose another module.
          </p>
        ) : null}

        {!active ? (
          <div ref={modeGroup} role="group" aria-label="Start a training session" className="flex flex-wrap gap-2">
            {modes.map((mode) => (
              <ModeButton
                key={mode.type}
                mode={mode}
                unavailable={mode.type === 'vr' && !caps.supportsVR}
                // Immersive modes need the 3D view to exist before the click, which must request the session.
                disabled={busy || !content.data || (mode.type !== 'desktop' && !playerReady)}
                onStart={start}
              />
            ))}
            {phase === 'starting' ? (
              <span role="status" className="self-center text-sm text-slate-300">
                Starting session…
              </span>
            ) : null}
          </div>
        ) : (
          <div className="flex flex-wrap items-center gap-3">
            <Badge variant="live">{active.type.toUpperCase()} session active</Badge>
            <span className="text-sm tabular-nums text-slate-300" aria-label="Elapsed time">
              {formatClock(now - active.run.startedAtMs)}
            </span>
            <span className="text-sm text-slate-300">Safety score so far: {safetyScore(active.scene, active.run)}%</span>
            <Button ref={endButton} variant="destructive" className="ml-auto" disabled={busy} onClick={() => void end()}>
              <Square aria-hidden="true" />
              End Session
            </Button>
          </div>
        )}

        {stoppedBy ? (
          <div role="alert" className="flex items-start gap-2 rounded-md border border-red-500/50 bg-red-500/15 p-3 text-sm text-red-50" data-testid="instructor-stop">
            <OctagonX className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            <div>
              <p className="font-semibold">{stoppedBy.from} stopped this session</p>
              {stoppedBy.text ? <p className="mt-1 break-words">Reason: {stoppedBy.text}</p> : null}
            </div>
          </div>
        ) : null}
        <div role="status" aria-live="polite">
          {instructorMessage ? (
            <div className="flex items-start gap-3 rounded-md border border-sky-400/50 bg-sky-500/15 p-3 text-sm text-sky-50" data-testid="instructor-message">
              <Megaphone className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
              <div className="min-w-0 flex-1">
                <p className="font-semibold">Message from {instructorMessage.from}</p>
                <p className="mt-1 whitespace-pre-wrap break-words">{instructorMessage.text}</p>
              </div>
              <Button size="sm" variant="ghost" onClick={() => setInstructorMessage(null)} aria-label={`Dismiss the message from ${instructorMessage.from}`}>
                <X aria-hidden="true" />
                Dismiss
              </Button>
            </div>
          ) : null}
        </div>

        {lastResult && !active ? (
          <div
            role="status"
            className={cn(
              'space-y-2 rounded-md border p-3 text-sm',
              lastResult.verified === false ? 'border-amber-500/40 bg-amber-500/10 text-amber-50' : 'border-emerald-500/30 bg-emerald-500/10 text-emerald-100',
            )}
          >
            <p>
              Last session: {lastResult.interactionData?.completionStatus === 'passed' ? 'passed' : 'not passed'}
              {typeof lastResult.safetyScore === 'number' ? ` · safety score ${lastResult.safetyScore}%` : ''}
              {` · ${Math.floor((lastResult.duration ?? 0) / 60)} min`}
            </p>
            <SessionVerification verified={lastResult.verified} issues={lastResult.verificationIssues} />
          </div>
        ) : null}

        {scene ? (
          <SceneErrorBoundary resetKey={scene.id}>
            <Suspense
              fallback={
                <div role="status" className="flex h-[420px] items-center justify-center rounded-lg border border-white/10 bg-slate-900 text-sm text-slate-300">
                  Loading 3D scene…
                </div>
              }
            >
              <ScenePlayer
                scene={scene}
                stepStatus={active?.run.status ?? {}}
                currentStepId={step?.id}
                instruction={active ? (step ? step.instruction : 'All steps done. Select End Session to finish.') : undefined}
                interactive={active !== null}
                onActivate={onActivate}
                onSkip={() => onSkip('ray')}
                onEnd={() => void end()}
                onEmergency={
                  realtime
                    ? () => {
                        // The headset hides the page's Safety Controls: the scene offers the emergency stop itself.
                        if (!realtime.sendSafetyAlert({ alertType: 'emergency', description: 'Emergency stop requested' })) {
                          toast({ variant: 'destructive', title: 'Safety alert not sent', description: 'The realtime channel is disconnected.' })
                        }
                      }
                    : undefined
                }
                safetyAlert={
                  alert && safetyAlerts
                    ? { text: safetyAlertText(alert.description), onAcknowledge: () => safetyAlerts.acknowledge(alert.key) }
                    : undefined
                }
                onHover={setHovered}
                onReady={onReady}
              />
            </Suspense>
          </SceneErrorBoundary>
        ) : content.isPending && moduleId ? (
          <p role="status" className="text-sm text-slate-300">
            Loading the module's XR scene…
          </p>
        ) : null}
        <p className="min-h-5 text-sm text-slate-300" aria-live="polite" data-testid="xr-pointer">
          {hovered ? `Pointing at: ${hovered}` : ''}
        </p>

        {scene ? (
          <StepList
            scene={scene}
            status={active?.run.status}
            currentStepId={step?.id}
            readyInMs={readyInMs}
            active={active !== null && !busy}
            finished={finished}
            onDo={(objectId) => onActivate(objectId, 'keyboard')}
            onSkip={() => onSkip('keyboard')}
            endButton={endButton}
          />
        ) : null}
      </CardContent>
    </Card>
  )
}
