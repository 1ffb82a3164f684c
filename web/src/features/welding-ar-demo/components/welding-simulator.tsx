import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { Link } from 'wouter'
import { Flame, ListChecks, Square, Video } from 'lucide-react'
import { useHeadingTag } from '@/components/heading'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Checkbox } from '@/components/ui/checkbox'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { useTrainingModules, useXRContent } from '@/api/catalog'
import { judgedOutcome, useEndSession, useEndSessionOnLeave, useStartSession, useUpdateSession } from '@/api/xr-sessions'
import type { SessionRecord, Step } from '@/components/xr/types'
import { SafetyCheckNote } from '@/components/xr/safety-check-note'
import { toast } from '@/hooks/use-toast'
import { ApiError } from '@/lib/api'
import { cn } from '@/lib/utils'
import {
  CAMERA_DENIED,
  checkInteraction,
  checkInteractions,
  checkReadyInMs,
  weldInteractions,
  type DoneCheck,
  type WeldResult,
} from '@/features/welding-ar-demo/lib/record'
import { METRICS, formatMetric, materials, metricKeys, positionNames, positions, techniqueNames, techniques, type Metrics, type WeldSettings } from '@/lib/weld'
import {
  START_VIBRATION,
  TICK_MS,
  defaultSettings,
  drift,
  formatDuration,
  initialMetrics,
  metricColour,
  qualityLabel,
  qualityScore,
  weldingModuleId,
  type MetricColour,
} from '@/features/welding-ar-demo/lib/welding'

const colourClass: Record<MetricColour, string> = {
  green: 'border-emerald-400/70 text-emerald-300',
  yellow: 'border-amber-400/70 text-amber-300',
  red: 'border-red-500/80 text-red-300',
  neutral: 'border-white/20 text-slate-100',
}
const colourText: Record<MetricColour, string> = { green: 'on target', yellow: 'near target', red: 'off target', neutral: 'no target' }

/** checking: the session has begun with the pre-weld checks; active: welding. */
type Phase = 'setup' | 'checking' | 'active' | 'completed'
type SaveState = { status: 'idle' | 'saving' | 'unsaved' | 'ended' | 'error' } | { status: 'saved'; record: SessionRecord }

/**
 * AR welding simulator (spec 001 §2, §4, §9): the camera image behind a
 * welding overlay, simulated metrics drifting every 500 ms, and a quality
 * result stored as an AR session record. The record begins with the
 * pre-weld checks when the learner begins them (each stored as it is
 * ticked), else at Start Welding. Exported for the /advanced page.
 */
export function WeldingSimulator() {
  const modules = useTrainingModules()
  const { mutateAsync: startSession } = useStartSession()
  const { mutateAsync: updateSession } = useUpdateSession()
  const { mutateAsync: endSession } = useEndSession()
  const title = useHeadingTag()
  const [settings, setSettings] = useState<WeldSettings>(defaultSettings)
  const [phase, setPhase] = useState<Phase>('setup')
  const [metrics, setMetrics] = useState<Metrics>(initialMetrics)
  const [elapsed, setElapsed] = useState(0)
  const [result, setResult] = useState<WeldResult | null>(null)
  const [save, setSave] = useState<SaveState>({ status: 'idle' })
  const [done, setDone] = useState<DoneCheck[]>([])
  const [now, setNow] = useState(() => Date.now())
  const [starting, setStarting] = useState(false)
  const videoRef = useRef<HTMLVideoElement>(null)
  const endRef = useRef<HTMLButtonElement>(null)
  const startRef = useRef<HTMLButtonElement>(null)
  const streamRef = useRef<MediaStream | null>(null)
  const [sessionStartedAt, setSessionStartedAt] = useState(0)
  const startedAtRef = useRef(0) // the weld's start
  const metricsRef = useRef(metrics)
  const sessionRef = useRef<Promise<SessionRecord | null> | null>(null)
  const openRecord = useRef<SessionRecord | null>(null) // the session's record once the server has it, until it ends
  const ids = { technique: useId(), material: useId(), position: useId() }

  const moduleId = modules.data ? weldingModuleId(settings.technique, modules.data) : undefined
  const moduleTitle = modules.data?.find((m) => m.id === moduleId)?.title
  const content = useXRContent(moduleId ?? '')
  // Every step of the module's scene, preparation and safety checks alike: the session passes only when all are done, in order.
  const checkSteps: Step[] = content.data?.scene.steps ?? []
  const checkNames = new Map((content.data?.scene.safetyChecks ?? []).map((c) => [c.id, c.description]))

  // While checking, a check's hold counts down.
  useEffect(() => {
    if (phase !== 'checking') return
    const id = window.setInterval(() => setNow(Date.now()), 250)
    return () => window.clearInterval(id)
  }, [phase])

  // The control the learner acted on goes away or closes (Begin, a ticked check, Start Welding):
  // focus moves on to what comes next, so keyboard and screen-reader users keep their place.
  const nextCheckId = phase === 'checking' ? checkSteps[done.length]?.id : undefined
  useEffect(() => {
    if (phase === 'checking') {
      const next = nextCheckId ? document.getElementById(`weld-check-${nextCheckId}`) : startRef.current
      next?.focus()
    } else if (phase === 'active') endRef.current?.focus()
  }, [phase, nextCheckId])

  // While welding, the metrics drift every 500 ms (spec 001 §4, §9).
  useEffect(() => {
    if (phase !== 'active') return
    const id = window.setInterval(() => {
      const next = drift(metricsRef.current, Math.random)
      metricsRef.current = next
      setMetrics(next)
      setElapsed((Date.now() - startedAtRef.current) / 1000)
    }, TICK_MS)
    return () => window.clearInterval(id)
  }, [phase])

  const stopCamera = useCallback(() => {
    streamRef.current?.getTracks().forEach((t) => t.stop())
    streamRef.current = null
    if (videoRef.current) videoRef.current.srcObject = null
  }, [])

  // Leaving the page releases the camera.
  useEffect(() => stopCamera, [stopCamera])

  /** Starts the session record; an update or the end waits for it. */
  function openSession(startedAt: number) {
    if (!moduleId) return
    setSessionStartedAt(startedAt)
    sessionRef.current = startSession({
      moduleId,
      sessionType: 'ar',
      deviceType: navigator.userAgent,
      startedAt: new Date(startedAt).toISOString(),
    })
      .then((record) => (openRecord.current = record))
      .catch(() => {
        toast({ variant: 'destructive', title: 'Session Failed', description: 'Could not start training session' })
        return null
      })
  }

  // Leaving during the checks or the weld ends the session with the checks ticked so far; a weld not finished counts for nothing.
  useEndSessionOnLeave(() => {
    const record = openRecord.current
    if (!record || !sessionRef.current) return null
    sessionRef.current = null
    openRecord.current = null
    const at = Date.now()
    return {
      id: record.id,
      end: {
        endedAt: new Date(at).toISOString(),
        duration: Math.round((at - sessionStartedAt) / 1000),
        interactionData: { interactions: checkInteractions(done, sessionStartedAt), safetyChecks: [] },
      },
    }
  })

  function beginChecks() {
    const t = Date.now()
    setDone([])
    setNow(t)
    setResult(null)
    setSave({ status: 'idle' })
    setPhase('checking')
    openSession(t)
  }

  async function tick(step: Step) {
    const at = Date.now()
    if (done.some((d) => d.step.id === step.id) || checkReadyInMs(checkSteps, done, sessionStartedAt, at) > 0) return
    const check = { step, at }
    setDone([...done, check])
    const record = await sessionRef.current
    if (!record) return
    // A lost update is not lost work: the end sends every check again, and the server stores each seq once.
    await updateSession({
      id: record.id,
      update: {
        interactionData: { interactions: [checkInteraction(check, done.length, sessionStartedAt)], safetyChecks: [] },
        duration: Math.round((at - sessionStartedAt) / 1000),
      },
    }).catch((err: unknown) => console.error('AR session update failed', err))
  }

  async function start() {
    if (!moduleId) return
    setStarting(true)
    let stream: MediaStream
    try {
      if (!navigator.mediaDevices?.getUserMedia) throw new Error('no camera API')
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false })
    } catch {
      setStarting(false)
      window.alert(CAMERA_DENIED)
      return
    }
    streamRef.current = stream
    const video = videoRef.current
    if (video) {
      video.srcObject = stream
      // autoPlay usually starts it; play() covers browsers that wait for a gesture.
      void Promise.resolve()
        .then(() => video.play())
        .catch(() => {})
    }
    const startedAt = Date.now()
    startedAtRef.current = startedAt
    if (phase !== 'checking') {
      setDone([])
      openSession(startedAt)
    }
    const first = initialMetrics()
    metricsRef.current = first
    setMetrics(first)
    setElapsed(0)
    setResult(null)
    setSave({ status: 'idle' })
    setPhase('active')
    setStarting(false)
    if (typeof navigator.vibrate === 'function') navigator.vibrate(START_VIBRATION)
  }

  async function end() {
    stopCamera()
    const endedAt = Date.now()
    const startedAt = startedAtRef.current
    const final = metricsRef.current
    const score = qualityScore(final)
    const r: WeldResult = {
      metrics: final,
      qualityScore: score,
      qualityLabel: qualityLabel(score),
      duration: Math.round((endedAt - startedAt) / 1000),
    }
    setResult(r)
    setPhase('completed')
    const record = await sessionRef.current
    sessionRef.current = null
    openRecord.current = null
    if (!record) {
      setSave({ status: 'unsaved' })
      return
    }
    setSave({ status: 'saving' })
    try {
      const ended = await endSession({
        id: record.id,
        end: {
          endedAt: new Date(endedAt).toISOString(),
          duration: Math.round((endedAt - sessionStartedAt) / 1000),
          interactionData: { interactions: weldInteractions(done, settings, r, sessionStartedAt, endedAt), safetyChecks: [] },
        },
      })
      setSave({ status: 'saved', record: ended })
      toast({ title: 'Session Completed', description: `Training session lasted ${Math.round((endedAt - sessionStartedAt) / 60_000)} minutes` })
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        // Ended already, as in the XR Training Center: by the server after a day without an update.
        setSave({ status: 'ended' })
        toast({ title: 'Session Already Ended', description: err.serverMessage })
        return
      }
      setSave({ status: 'error' })
      toast({ variant: 'destructive', title: 'Session End Error', description: 'Could not properly end session' })
    }
  }

  const active = phase === 'active'
  const locked = active || phase === 'checking' // the settings are fixed once the session has begun
  const setField = <K extends keyof WeldSettings>(k: K) => (v: string) => setSettings((s) => ({ ...s, [k]: v as WeldSettings[K] }))

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <div className="space-y-6">
        <Card>
          <CardHeader>
            <CardTitle as={title}>Weld Setup</CardTitle>
            <CardDescription>{moduleTitle ? `Recorded against: ${moduleTitle}` : 'Loading the welding modules…'}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <div className="space-y-1">
              <Label htmlFor={ids.technique}>Technique</Label>
              <Select value={settings.technique} onValueChange={setField('technique')} disabled={locked}>
                <SelectTrigger id={ids.technique}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {techniques.map((t) => (
                    <SelectItem key={t} value={t}>
                      {techniqueNames[t]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <div className="space-y-1">
              <Label htmlFor={ids.material}>Material</Label>
              <Select value={settings.material} onValueChange={setField('material')} disabled={locked}>
                <SelectTrigger id={ids.material} className="capitalize">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {materials.map((m) => (
                    <SelectItem key={m} value={m} className="capitalize">
                      {m}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <div className="space-y-1">
              <Label htmlFor={ids.position}>Position</Label>
              <Select value={settings.position} onValueChange={setField('position')} disabled={locked}>
                <SelectTrigger id={ids.position}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {positions.map((p) => (
                    <SelectItem key={p} value={p}>
                      {positionNames[p]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle as={title}>Pre-weld Checks</CardTitle>
            <CardDescription>
              {phase === 'checking'
                ? 'Do each check for real, in order: it can be ticked once the time it takes has passed. Then start welding.'
                : 'Your session starts when you begin the checks. The safety checks count towards its safety score; it passes when every check is done, in order.'}
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            {content.isError ? <p className="text-sm text-red-300">Could not load the pre-weld checks.</p> : null}
            <PreWeldChecklist
              steps={checkSteps}
              checkNames={checkNames}
              done={done}
              open={phase === 'checking'}
              startedAt={sessionStartedAt}
              now={now}
              onTick={tick}
            />
            {(phase === 'setup' || phase === 'completed') && checkSteps.length > 0 ? (
              <Button variant="outline" onClick={beginChecks} disabled={!moduleId}>
                <ListChecks aria-hidden="true" /> Begin Pre-weld Checks
              </Button>
            ) : null}
          </CardContent>
        </Card>
      </div>

      <div className="space-y-6 lg:col-span-2">
        <div className="relative aspect-[3/4] overflow-hidden rounded-xl border border-white/15 bg-slate-950 sm:aspect-video" data-testid="weld-viewport">
          <video ref={videoRef} className="absolute inset-0 h-full w-full object-cover" autoPlay muted playsInline aria-label="Camera view" />
          <div className="pointer-events-none absolute inset-0 flex flex-col justify-between p-3">
            <div className="flex items-center justify-between">
              <Badge variant={active ? 'live' : 'outline'} data-testid="weld-status">
                {active ? 'Welding' : phase === 'completed' ? 'Weld complete' : 'Ready'}
              </Badge>
              <span className="rounded bg-black/60 px-2 py-1 font-mono text-sm text-white" data-testid="weld-timer">
                {formatDuration(active ? elapsed : (result?.duration ?? 0))}
              </span>
            </div>
            {active ? (
              <div className="mx-auto h-16 w-16 rounded-full border-2 border-amber-400/80 shadow-[0_0_30px_rgba(251,191,36,0.6)]" aria-hidden="true" />
            ) : (
              <p className="mx-auto rounded bg-black/60 px-3 py-2 text-center text-sm text-slate-200">
                {phase === 'completed' ? 'Camera off' : 'Start welding to turn on the camera and the AR overlay.'}
              </p>
            )}
            <ul className="grid grid-cols-2 gap-2 sm:grid-cols-4" aria-label="Weld metrics">
              {metricKeys.map((k) => {
                const c = metricColour(k, metrics[k])
                return (
                  <li
                    key={k}
                    className={cn('rounded-md border bg-black/65 px-2 py-1', colourClass[c])}
                    data-testid={`metric-${k}`}
                    data-colour={c}
                  >
                    <span className="block text-[11px] text-slate-300">{METRICS[k].label}</span>
                    <span className="font-mono text-base font-semibold">
                      {formatMetric(k, metrics[k])} {METRICS[k].unit}
                    </span>
                    <span className="sr-only"> ({colourText[c]})</span>
                  </li>
                )
              })}
            </ul>
          </div>
        </div>
        <div className="flex flex-wrap gap-3">
          {/* Keyed: one button changing into the other would fade between their colours, through unreadable ones. */}
          {active ? (
            <Button key="end" ref={endRef} variant="destructive" className="hover:bg-red-700" onClick={() => void end()}>
              <Square aria-hidden="true" /> End Weld
            </Button>
          ) : (
            <Button key="start" ref={startRef} onClick={() => void start()} disabled={!moduleId || starting}>
              {phase === 'completed' ? <Video aria-hidden="true" /> : <Flame aria-hidden="true" />}
              {phase === 'completed' ? 'Weld Again' : 'Start Welding'}
            </Button>
          )}
        </div>
        {result ? (
          <Card data-testid="weld-result">
            <CardHeader>
              <CardTitle as={title}>Weld Quality</CardTitle>
            </CardHeader>
            <CardContent className="space-y-2">
              <p className="text-4xl font-bold text-white">
                <span data-testid="quality-score">{result.qualityScore.toFixed(1)}</span>
                <span className="ml-3 text-xl text-amber-300" data-testid="quality-label">
                  {result.qualityLabel}
                </span>
              </p>
              <p className="text-slate-300">
                Duration <span data-testid="weld-duration">{formatDuration(result.duration)}</span> · {settings.technique},{' '}
                {settings.material}, {settings.position}
              </p>
              <p className="text-sm text-slate-300" role="status">
                {save.status === 'saving' ? 'Saving to your session history…' : null}
                {save.status === 'saved' ? (
                  <>
                    {savedText(save.record)}{' '}
                    <Link href="/xr-training" className="text-amber-400 underline">
                      Open XR Training Center
                    </Link>
                  </>
                ) : null}
                {save.status === 'unsaved' ? 'This weld was not saved: the session could not be started.' : null}
                {save.status === 'ended' ? 'This weld was not saved: its session had already ended.' : null}
                {save.status === 'error' ? 'This weld could not be saved.' : null}
              </p>
            </CardContent>
          </Card>
        ) : null}
      </div>
    </div>
  )
}

/** What the page says of a stored weld: the server's outcome and safety score, when the record has them. */
function savedText(record: SessionRecord): string {
  const outcome = judgedOutcome(record.interactionData?.completionStatus, record.verified)
  const parts = [
    outcome === 'unverified' ? 'passed, not verified' : outcome,
    typeof record.safetyScore === 'number' ? `safety ${record.safetyScore}%` : '',
  ].filter(Boolean)
  return parts.length ? `Saved to your session history: ${parts.join(', ')}.` : 'Saved to your session history.'
}

/**
 * The scene's steps as checkboxes, ticked in order while the checks are
 * open; the next one opens once its hold is over. A step that performs a
 * safety check says which.
 */
function PreWeldChecklist({ steps, checkNames, done, open, startedAt, now, onTick }: {
  steps: Step[]
  /** The scene's safety checks' descriptions by id. */
  checkNames: Map<string, string>
  done: DoneCheck[]
  open: boolean
  /** When the session began and the time now, ms since 1970: the next check's hold counts from them. */
  startedAt: number
  now: number
  onTick(step: Step): Promise<void>
}) {
  const readyInMs = checkReadyInMs(steps, done, startedAt, now)
  const current = open ? done.length : -1
  return (
    <>
      <ul className="space-y-3">
        {steps.map((s, i) => {
          const ticked = done.some((d) => d.step.id === s.id)
          const waiting = i === current && readyInMs > 0
          return (
            <li key={s.id} className="flex items-start gap-3">
              {/* aria-disabled, not disabled, while it waits: focus can rest on it and hear why. */}
              <Checkbox
                id={`weld-check-${s.id}`}
                checked={ticked}
                disabled={i !== current}
                aria-disabled={waiting || undefined}
                aria-describedby={[s.safetyCheckId && `weld-check-${s.id}-safety`, waiting && `weld-check-${s.id}-wait`].filter(Boolean).join(' ') || undefined}
                className={cn(waiting && 'cursor-not-allowed opacity-60')}
                onCheckedChange={(v) => {
                  if (v === true && !waiting) void onTick(s)
                }}
              />
              <div className="space-y-1">
                <Label htmlFor={`weld-check-${s.id}`} className="text-sm leading-5 text-slate-200">
                  {s.instruction}
                </Label>
                {s.safetyCheckId ? (
                  <SafetyCheckNote id={`weld-check-${s.id}-safety`} className="flex text-xs" description={checkNames.get(s.safetyCheckId) ?? s.safetyCheckId} />
                ) : null}
                {waiting ? (
                  <p id={`weld-check-${s.id}-wait`} className="text-xs text-slate-400">
                    Take your time: this check opens in {Math.ceil(readyInMs / 1000)} s
                  </p>
                ) : null}
              </div>
            </li>
          )
        })}
      </ul>
      <p role="status" className="sr-only">
        {current >= 0 && current < steps.length && readyInMs === 0 ? `Check ${current + 1} of ${steps.length} can be ticked now.` : ''}
      </p>
    </>
  )
}
