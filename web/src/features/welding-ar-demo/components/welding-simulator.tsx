import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { Link } from 'wouter'
import { Flame, Square, Video } from 'lucide-react'
import { useHeadingTag } from '@/components/heading'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Checkbox } from '@/components/ui/checkbox'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { useTrainingModules, useXRContent } from '@/api/catalog'
import { useEndSession, useStartSession } from '@/api/xr-sessions'
import type { SessionRecord, Step } from '@/components/xr/types'
import { toast } from '@/hooks/use-toast'
import { cn } from '@/lib/utils'
import { CAMERA_DENIED, weldInteractions, type WeldResult } from '@/features/welding-ar-demo/lib/record'
import {
  METRICS,
  START_VIBRATION,
  TICK_MS,
  defaultSettings,
  drift,
  formatDuration,
  formatMetric,
  initialMetrics,
  materials,
  metricColour,
  metricKeys,
  positionNames,
  positions,
  qualityLabel,
  qualityScore,
  techniqueNames,
  techniques,
  weldingModuleId,
  type MetricColour,
  type Metrics,
  type WeldSettings,
} from '@/features/welding-ar-demo/lib/welding'

const colourClass: Record<MetricColour, string> = {
  green: 'border-emerald-400/70 text-emerald-300',
  yellow: 'border-amber-400/70 text-amber-300',
  red: 'border-red-500/80 text-red-300',
  neutral: 'border-white/20 text-slate-100',
}
const colourText: Record<MetricColour, string> = { green: 'on target', yellow: 'near target', red: 'off target', neutral: 'no target' }

type Phase = 'setup' | 'active' | 'completed'
type SaveState = { status: 'idle' | 'saving' | 'unsaved' | 'error' } | { status: 'saved'; record: SessionRecord }

/**
 * AR welding simulator (spec 001 §2, §4, §9): the camera image behind a
 * welding overlay, simulated metrics drifting every 500 ms, and a quality
 * result stored as an AR session record. Exported for the /advanced page.
 */
export function WeldingSimulator() {
  const modules = useTrainingModules()
  const { mutateAsync: startSession } = useStartSession()
  const { mutateAsync: endSession } = useEndSession()
  const title = useHeadingTag()
  const [settings, setSettings] = useState<WeldSettings>(defaultSettings)
  const [phase, setPhase] = useState<Phase>('setup')
  const [metrics, setMetrics] = useState<Metrics>(initialMetrics)
  const [elapsed, setElapsed] = useState(0)
  const [result, setResult] = useState<WeldResult | null>(null)
  const [save, setSave] = useState<SaveState>({ status: 'idle' })
  const [checked, setChecked] = useState<Set<string>>(new Set())
  const [starting, setStarting] = useState(false)
  const videoRef = useRef<HTMLVideoElement>(null)
  const streamRef = useRef<MediaStream | null>(null)
  const startedAtRef = useRef(0)
  const metricsRef = useRef(metrics)
  const sessionRef = useRef<Promise<SessionRecord | null> | null>(null)
  const ids = { technique: useId(), material: useId(), position: useId() }

  const moduleId = modules.data ? weldingModuleId(settings.technique, modules.data) : undefined
  const moduleTitle = modules.data?.find((m) => m.id === moduleId)?.title
  const content = useXRContent(moduleId ?? '')
  const safetySteps: Step[] = (content.data?.scene.steps ?? []).filter((s) => s.safetyCheckId)

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
    const first = initialMetrics()
    metricsRef.current = first
    setMetrics(first)
    setElapsed(0)
    setResult(null)
    setSave({ status: 'idle' })
    setPhase('active')
    setStarting(false)
    if (typeof navigator.vibrate === 'function') navigator.vibrate(START_VIBRATION)
    sessionRef.current = startSession({
      moduleId,
      sessionType: 'ar',
      deviceType: navigator.userAgent,
      startedAt: new Date(startedAt).toISOString(),
    }).catch(() => {
      toast({ variant: 'destructive', title: 'Session Failed', description: 'Could not start training session' })
      return null
    })
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
    if (!record) {
      setSave({ status: 'unsaved' })
      return
    }
    setSave({ status: 'saving' })
    try {
      const done = await endSession({
        id: record.id,
        end: {
          endedAt: new Date(endedAt).toISOString(),
          duration: r.duration,
          interactionData: {
            interactions: weldInteractions(
              safetySteps.filter((s) => checked.has(s.id)),
              settings,
              r,
              startedAt,
              endedAt,
            ),
            safetyChecks: [],
          },
        },
      })
      setSave({ status: 'saved', record: done })
      toast({ title: 'Session Completed', description: `Training session lasted ${Math.round(r.duration / 60)} minutes` })
    } catch {
      setSave({ status: 'error' })
      toast({ variant: 'destructive', title: 'Session End Error', description: 'Could not properly end session' })
    }
  }

  const active = phase === 'active'
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
              <Select value={settings.technique} onValueChange={setField('technique')} disabled={active}>
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
              <Select value={settings.material} onValueChange={setField('material')} disabled={active}>
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
              <Select value={settings.position} onValueChange={setField('position')} disabled={active}>
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
            <CardTitle as={title}>Pre-weld Safety Checks</CardTitle>
            <CardDescription>Ticked checks count towards the session's safety score.</CardDescription>
          </CardHeader>
          <CardContent>
            {content.isError ? <p className="text-sm text-red-300">Could not load the safety checks.</p> : null}
            <SafetyChecklist steps={safetySteps} checked={checked} disabled={active} onChange={setChecked} />
          </CardContent>
        </Card>
      </div>

      <div className="space-y-6 lg:col-span-2">
        <div className="relative aspect-video overflow-hidden rounded-xl border border-white/15 bg-slate-950" data-testid="weld-viewport">
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
          {active ? (
            <Button variant="destructive" className="hover:bg-red-700" onClick={() => void end()}>
              <Square aria-hidden="true" /> End Weld
            </Button>
          ) : (
            <Button onClick={() => void start()} disabled={!moduleId || starting}>
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
                    Saved to your session history
                    {typeof save.record.safetyScore === 'number' ? ` (safety ${save.record.safetyScore}%)` : ''}.{' '}
                    <Link href="/xr-training" className="text-amber-400 underline">
                      Open XR Training Center
                    </Link>
                  </>
                ) : null}
                {save.status === 'unsaved' ? 'This weld was not saved: the session could not be started.' : null}
                {save.status === 'error' ? 'This weld could not be saved.' : null}
              </p>
            </CardContent>
          </Card>
        ) : null}
      </div>
    </div>
  )
}

/** The scene's safety steps as checkboxes; ticked ones go with the session record. */
function SafetyChecklist({ steps, checked, disabled, onChange }: {
  steps: Step[]
  checked: Set<string>
  disabled: boolean
  onChange(update: (checked: Set<string>) => Set<string>): void
}) {
  return (
    <ul className="space-y-3">
      {steps.map((s) => (
        <li key={s.id} className="flex items-start gap-3">
          <Checkbox
            id={`weld-check-${s.id}`}
            checked={checked.has(s.id)}
            disabled={disabled}
            onCheckedChange={(v) =>
              onChange((c) => {
                const n = new Set(c)
                if (v === true) n.add(s.id)
                else n.delete(s.id)
                return n
              })
            }
          />
          <Label htmlFor={`weld-check-${s.id}`} className="text-sm leading-5 text-slate-200">
            {s.instruction}
          </Label>
        </li>
      ))}
    </ul>
  )
}
