import { useEffect, useId, useState, useSyncExternalStore, type FormEvent } from 'react'
import { Mic, MicOff, Volume2, VolumeX } from 'lucide-react'
import { Heading, useHeadingTag } from '@/components/heading'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Progress } from '@/components/ui/progress'
import { useSaveVoiceRun, useVoiceModules, useVoiceRuns, type VoiceRun } from '@/api/voice'
import { MESSAGES, SHOWN_COMMANDS, progressPercent } from '@/features/voice-xr/lib/commands'
import { VoiceSession, browserSpeech, type SpeechDeps, type VoiceState } from '@/features/voice-xr/lib/voice-session'
import { cn } from '@/lib/utils'

const stateLabel: Record<VoiceState, string> = {
  idle: 'Idle',
  listening: 'Listening',
  processing: 'Processing',
  responding: 'Responding',
}

const stateClass: Record<VoiceState, string> = {
  idle: 'bg-slate-700 text-slate-100',
  listening: 'bg-emerald-700 text-white',
  processing: 'bg-amber-500 text-slate-950',
  responding: 'bg-sky-700 text-white',
}

/** Saved runs the page lists. */
const SHOWN_RUNS = 5

/** One saved run, as the server judged it. */
function runSummary(r: VoiceRun): string {
  const how = r.completed ? (r.passed ? 'completed' : 'completed, steps skipped') : 'ended early'
  const stops = r.emergencyStops > 0 ? `, ${r.emergencyStops} emergency stop${r.emergencyStops === 1 ? '' : 's'}` : ''
  return `${r.moduleName || r.moduleId}: ${r.stepsWalked} of ${r.totalSteps} steps, ${how}${stops}`
}

const matchLabel = { exact: 'Recognized', fuzzy: 'Did you mean', none: 'Not recognized' } as const

/**
 * Voice-activated training (spec 001 §2): hands-free step-by-step procedures.
 * Exported for the /advanced page. `speech` replaces the browser's speech API
 * (tests); without it the page uses window.SpeechRecognition and speechSynthesis.
 */
export function VoiceTrainingConsole({ speech }: { speech?: SpeechDeps }) {
  const [session] = useState(() => new VoiceSession(speech ?? browserSpeech()))
  const snap = useSyncExternalStore(session.subscribe, session.getSnapshot)
  const modules = useVoiceModules()
  const title = useHeadingTag()
  const subtitle = useHeadingTag(1)
  const [typed, setTyped] = useState('')
  const inputId = useId()

  const runs = useVoiceRuns()
  const saveRun = useSaveVoiceRun()
  const { mutate: save } = saveRun

  useEffect(() => {
    if (modules.data) session.setModules(modules.data)
  }, [modules.data, session])
  useEffect(() => {
    session.setRunEnded((run) => save(run))
  }, [session, save])
  useEffect(
    () => () => {
      // Leaving the page ends the run under way: it is kept as ended early.
      session.endRun()
      session.dispose()
    },
    [session],
  )

  const active = snap.progress ? snap.modules.find((m) => m.id === snap.progress?.moduleId) : undefined
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (typed.trim() === '') return
    session.handleTranscript(typed)
    setTyped('')
  }
  const lastCaptions = snap.captions.slice(-4)

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Card className="lg:col-span-2">
        <CardHeader>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <CardTitle as={title}>Voice Control</CardTitle>
            <span
              className={cn('rounded-full px-3 py-1 text-xs font-semibold', stateClass[snap.voiceState])}
              data-testid="voice-state"
              role="status"
            >
              {stateLabel[snap.voiceState]}
            </span>
          </div>
          <CardDescription>Say a command to move through the active procedure with your hands on the job.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {!snap.supported ? (
            <p className="rounded-md border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-amber-100" role="note">
              {MESSAGES.notSupported}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-3">
            {snap.listening ? (
              <Button variant="destructive" className="hover:bg-red-700" onClick={() => session.stopListening()}>
                <MicOff aria-hidden="true" /> Stop Voice Control
              </Button>
            ) : (
              <Button onClick={() => session.startListening()} disabled={!snap.supported}>
                <Mic aria-hidden="true" /> Start Voice Control
              </Button>
            )}
            <Button variant="outline" aria-pressed={snap.audioOn} onClick={() => session.setAudio(!snap.audioOn)}>
              {snap.audioOn ? <Volume2 aria-hidden="true" /> : <VolumeX aria-hidden="true" />}
              {snap.audioOn ? 'Audio On' : 'Audio Off'}
            </Button>
          </div>
          {snap.error ? (
            <p className="text-sm text-red-300" role="alert">
              {snap.error}
            </p>
          ) : null}
          <div>
            <Heading depth={1} className="text-sm font-semibold text-slate-300">Live transcript</Heading>
            <p className="mt-1 min-h-10 rounded-md bg-slate-950/60 p-3 font-mono text-sm text-white" data-testid="transcript">
              {snap.transcript || (snap.listening ? 'Listening…' : 'Nothing heard yet.')}
            </p>
          </div>
          <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
            <div className="min-w-56 flex-1">
              <label htmlFor={inputId} className="text-sm font-semibold text-slate-300">
                Type a command
              </label>
              <Input
                id={inputId}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                placeholder="e.g. next step"
                autoComplete="off"
                className="mt-1"
              />
            </div>
            <Button type="submit" variant="secondary">
              Send Command
            </Button>
          </form>
          <div>
            <Heading depth={1} className="text-sm font-semibold text-slate-300">Captions</Heading>
            <div
              role="log"
              aria-live="polite"
              aria-label="Spoken responses"
              className="mt-1 min-h-16 space-y-1 rounded-md border border-white/10 p-3 text-sm text-slate-100"
              data-testid="captions"
            >
              {lastCaptions.length === 0 ? <p className="text-slate-400">Spoken responses appear here.</p> : null}
              {lastCaptions.map((c) => (
                <p key={c.id}>{c.text}</p>
              ))}
            </div>
          </div>
        </CardContent>
      </Card>

      <div className="space-y-6">
        <Card>
          <CardHeader>
            <CardTitle as={title}>Active Module</CardTitle>
          </CardHeader>
          <CardContent data-testid="active-module">
            {active && snap.progress ? (
              <div className="space-y-3">
                <div className="flex items-center justify-between gap-2">
                  <p className="font-semibold text-white">{active.name}</p>
                  <Badge variant={snap.progress.isActive ? 'secondary' : 'live'}>{snap.progress.isActive ? 'Active' : 'Paused'}</Badge>
                </div>
                <p className="text-sm text-slate-300">
                  Step {snap.progress.currentStep} of {active.totalSteps}
                </p>
                <Progress value={progressPercent(active, snap.progress)} aria-label={`${active.name} progress`} />
                {snap.progress.currentStep > 0 ? (
                  <p className="text-sm text-slate-100">{active.steps[snap.progress.currentStep - 1]}</p>
                ) : null}
              </div>
            ) : (
              <p className="text-sm text-slate-400">No module active. Activate one below.</p>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle as={title}>Recent Commands</CardTitle>
          </CardHeader>
          <CardContent>
            {snap.recent.length === 0 ? (
              <p className="text-sm text-slate-400">No commands yet.</p>
            ) : (
              <ol className="space-y-2" aria-label="Recent commands" data-testid="recent-commands">
                {snap.recent.map((h) => (
                  <li key={h.id} className="flex items-center justify-between gap-2 text-sm">
                    <span className="text-white">“{h.transcript}”</span>
                    <span className="text-xs text-slate-400">
                      {matchLabel[h.match]}
                      {h.command && h.match === 'fuzzy' ? `: ${h.command}` : ''}
                    </span>
                  </li>
                ))}
              </ol>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle as={title}>Your Voice Runs</CardTitle>
          </CardHeader>
          <CardContent>
            {saveRun.isPending ? (
              <p className="text-sm text-slate-300" role="status">
                Saving your run…
              </p>
            ) : saveRun.isError ? (
              <p className="text-sm text-red-300" role="alert">
                Your run could not be saved: {saveRun.error.message}
              </p>
            ) : saveRun.isSuccess ? (
              <p className="text-sm text-emerald-300" role="status">
                Run saved.
              </p>
            ) : null}
            {runs.data && runs.data.length > 0 ? (
              <ol className="mt-2 space-y-2" aria-label="Your voice runs" data-testid="voice-runs">
                {runs.data.slice(0, SHOWN_RUNS).map((r) => (
                  <li key={r.id} className="text-sm text-slate-100">
                    {runSummary(r)}
                  </li>
                ))}
              </ol>
            ) : (
              <p className="text-sm text-slate-400">Finished runs are saved here.</p>
            )}
          </CardContent>
        </Card>
      </div>

      <section className="lg:col-span-3" aria-labelledby="voice-modules-heading">
        <Heading id="voice-modules-heading" className="mb-3 text-xl font-semibold text-white">
          Available Modules
        </Heading>
        {modules.isPending ? <p className="text-slate-300">Loading voice modules…</p> : null}
        {modules.isError ? (
          <p className="text-red-300" role="alert">
            Could not load the voice modules: {modules.error.message}
          </p>
        ) : null}
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {snap.modules.map((m) => {
            const isActive = snap.progress?.moduleId === m.id
            return (
              <li key={m.id}>
                <Card className="h-full" data-testid={`voice-module-${m.id}`}>
                  <CardHeader>
                    <CardTitle as={subtitle}>{m.name}</CardTitle>
                    <CardDescription>
                      {m.type} · {m.difficulty} · {m.totalSteps} steps
                    </CardDescription>
                  </CardHeader>
                  <CardContent className="space-y-3">
                    <ul className="space-y-1 text-sm" aria-label={`${m.name} voice commands`}>
                      {m.voiceCommands.slice(0, SHOWN_COMMANDS).map((c) => (
                        <li key={c.command}>
                          <span className="font-mono text-amber-300">“{c.command}”</span>{' '}
                          <span className="text-slate-300">{c.description}</span>
                        </li>
                      ))}
                    </ul>
                    {/*
                      The name says what the button shows, and which module: "Activate {name}", then "Active: {name}".
                      The active module's button has nothing left to do (saying its start command restarts the module), so it is
                      unavailable: it keeps focus after the press, and screen readers hear it as unavailable.
                      It keeps its full colour, which tells which module runs.
                    */}
                    <Button
                      size="sm"
                      variant={isActive ? 'secondary' : 'default'}
                      aria-label={isActive ? `Active: ${m.name}` : `Activate ${m.name}`}
                      unavailable={isActive}
                      className="aria-disabled:opacity-100"
                      onClick={() => session.activate(m.id)}
                    >
                      {isActive ? 'Active' : 'Activate'}
                    </Button>
                  </CardContent>
                </Card>
              </li>
            )
          })}
        </ul>
      </section>
    </div>
  )
}
