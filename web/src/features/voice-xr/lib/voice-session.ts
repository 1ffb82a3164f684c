import type { NewVoiceRun, VoiceModule } from '@/api/voice'
import {
  MESSAGES,
  RECENT_COMMANDS,
  SPEECH,
  respond,
  type Match,
  type ModuleProgress,
} from '@/features/voice-xr/lib/commands'

/** Voice states of spec 001 §4. */
export type VoiceState = 'idle' | 'listening' | 'processing' | 'responding'

/** The parts of the Web Speech API this page uses; tests inject fakes of them. */
export interface RecognitionLike {
  continuous: boolean
  interimResults: boolean
  lang: string
  onresult: ((e: RecognitionResultEventLike) => void) | null
  onend: (() => void) | null
  onerror: ((e: { error?: string }) => void) | null
  start(): void
  stop(): void
}
export interface RecognitionResultEventLike {
  resultIndex: number
  results: ArrayLike<{ isFinal: boolean; 0: { transcript: string } }>
}
export type RecognitionCtor = new () => RecognitionLike
export interface UtteranceLike {
  text: string
  rate: number
  pitch: number
  volume: number
  lang: string
  onend: (() => void) | null
  onerror: (() => void) | null
}
export interface SynthesisLike {
  speak(u: UtteranceLike): void
  cancel(): void
}
export interface SpeechDeps {
  Recognition?: RecognitionCtor
  synthesis?: SynthesisLike
  Utterance?: new (text: string) => UtteranceLike
}

/** Reads the browser's speech API (prefixed in Chrome and Safari). */
export function browserSpeech(w: Window = window): SpeechDeps {
  const anyW = w as unknown as Record<string, unknown>
  const Recognition = (anyW.SpeechRecognition ?? anyW.webkitSpeechRecognition) as RecognitionCtor | undefined
  const synthesis = anyW.speechSynthesis as SynthesisLike | undefined
  const Utterance = anyW.SpeechSynthesisUtterance as (new (text: string) => UtteranceLike) | undefined
  return { Recognition, synthesis: Utterance ? synthesis : undefined, Utterance }
}

const TRY_AGAIN = 'then press Start Voice Control again'
const TYPE_INSTEAD = 'You can still type commands in the box below.'

/**
 * What the page says when the recogniser stops with a SpeechRecognitionErrorEvent error code: what
 * happened and what to do, in words, never the bare code (the spec leaves these messages open; its
 * one voice message, the not-supported notice, is MESSAGES.notSupported).
 */
export function recognitionErrorMessage(code: string | undefined): string {
  switch (code) {
    case 'audio-capture':
      return `No microphone was found, or it could not be used. Connect a microphone, or close other apps that are using it, ${TRY_AGAIN}. ${TYPE_INSTEAD}`
    case 'not-allowed':
    case 'service-not-allowed':
      return `Microphone access was denied. Allow this site to use the microphone in your browser's site settings (reached from the address bar), ${TRY_AGAIN}. ${TYPE_INSTEAD}`
    case 'network':
      return `The speech recognition service could not be reached. Check your internet connection, ${TRY_AGAIN}. ${TYPE_INSTEAD}`
    case 'no-speech':
      return 'No speech was heard, so voice control stopped. Press Start Voice Control and speak close to the microphone.'
    case 'aborted':
      return 'Voice control was stopped. Press Start Voice Control to listen again.'
    case 'language-not-supported':
      return `This browser cannot recognise US English speech. ${TYPE_INSTEAD}`
    default:
      return `Voice control stopped unexpectedly. Press Start Voice Control to try again. ${TYPE_INSTEAD}`
  }
}

export interface HeardCommand {
  id: number
  transcript: string
  match: Match['kind']
  /** The phrase it matched or was guessed as. */
  command?: string
}

export interface Caption {
  id: number
  text: string
}

export interface VoiceSnapshot {
  supported: boolean
  voiceState: VoiceState
  listening: boolean
  audioOn: boolean
  transcript: string
  modules: VoiceModule[]
  progress: ModuleProgress | null
  /** Newest first, at most RECENT_COMMANDS. */
  recent: HeardCommand[]
  /** Everything spoken, newest last (the visible caption log). */
  captions: Caption[]
  error: string | null
}

const MAX_CAPTIONS = 20
/** The server's bound on one run's commands (voice.MaxRunCommands). */
export const MAX_RUN_COMMANDS = 500

/** The run under way: the module and the commands it acted on, as the server replays them. */
interface RunInProgress {
  moduleId: string
  startedAt: number
  commands: { command: string; at: string }[]
}

/**
 * One learner's voice training: the speech recogniser, the synthesiser and
 * the command rules tied into the states idle → listening → processing →
 * responding. Framework-free so tests can drive it with fakes; React reads
 * it through useSyncExternalStore.
 */
export class VoiceSession {
  private snap: VoiceSnapshot
  private listeners = new Set<() => void>()
  private recognition: RecognitionLike | null = null
  private seq = 0
  private speaking = 0
  private run: RunInProgress | null = null
  private onRunEnded: ((run: NewVoiceRun) => void) | null = null

  constructor(
    private deps: SpeechDeps,
    private now: () => number = Date.now,
  ) {
    this.snap = {
      supported: Boolean(deps.Recognition),
      voiceState: 'idle',
      listening: false,
      audioOn: true,
      transcript: '',
      modules: [],
      progress: null,
      recent: [],
      captions: [],
      error: null,
    }
  }

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn)
    return () => this.listeners.delete(fn)
  }

  getSnapshot = (): VoiceSnapshot => this.snap

  private set(patch: Partial<VoiceSnapshot>) {
    this.snap = { ...this.snap, ...patch }
    this.listeners.forEach((fn) => fn())
  }

  get activeModule(): VoiceModule | undefined {
    const p = this.snap.progress
    return p ? this.snap.modules.find((m) => m.id === p.moduleId) : undefined
  }

  setModules(modules: VoiceModule[]) {
    this.set({ modules })
  }

  /** Makes m the active module at step 0 and says how to begin. */
  activate(moduleId: string) {
    const m = this.snap.modules.find((x) => x.id === moduleId)
    if (!m) return
    this.endRun()
    this.run = { moduleId, startedAt: this.now(), commands: [] }
    this.set({ progress: { moduleId, currentStep: 0, isActive: true } })
    const start = m.voiceCommands.find((c) => c.action === 'start')?.command ?? m.voiceCommands[0].command
    this.speak(`${m.name} activated. Say "${start}" to begin.`)
  }

  /** Starts continuous en-US recognition (spec 001 §7). */
  startListening() {
    const { Recognition } = this.deps
    if (!Recognition || this.snap.listening) return
    if (!this.recognition) {
      const r = new Recognition()
      r.continuous = true
      r.interimResults = true
      r.lang = SPEECH.lang
      r.onresult = (e) => this.onResult(e)
      // Spec 001 §4: recognition ending or failing returns to idle and stops listening.
      r.onend = () => this.set({ listening: false, voiceState: 'idle' })
      r.onerror = (e) =>
        this.set({
          listening: false,
          voiceState: 'idle',
          error: recognitionErrorMessage(e.error),
        })
      this.recognition = r
    }
    try {
      this.recognition.start()
      this.set({ listening: true, voiceState: 'listening', error: null })
    } catch (err) {
      this.set({ listening: false, voiceState: 'idle', error: `Voice recognition could not start: ${(err as Error).message}` })
    }
  }

  stopListening() {
    this.recognition?.stop()
    this.set({ listening: false, voiceState: 'idle' })
  }

  setAudio(on: boolean) {
    if (!on) this.deps.synthesis?.cancel()
    this.set({ audioOn: on })
  }

  private onResult(e: RecognitionResultEventLike) {
    // Through speakers the recogniser hears our own voice; acting on it
    // would answer the answer ("Step 2 of 8…" fuzzily matches "next step").
    if (this.speaking > 0) return
    for (let i = e.resultIndex; i < e.results.length; i++) {
      const r = e.results[i]
      const text = r[0].transcript.trim()
      if (r.isFinal) this.handleTranscript(text)
      else this.set({ transcript: text })
    }
  }

  /** Runs one utterance, heard or typed, through the command rules. */
  handleTranscript(text: string) {
    this.set({ transcript: text, voiceState: 'processing' })
    const m = this.activeModule
    const p = this.snap.progress
    if (!m || !p) {
      this.speak('Activate a training module first, then say its start command.')
      return
    }
    const r = respond(m, p, text)
    const heard: HeardCommand = {
      id: ++this.seq,
      transcript: text,
      match: r.match.kind,
      command: r.match.kind === 'none' ? undefined : r.match.command.command,
    }
    this.set({ progress: r.progress, recent: [heard, ...this.snap.recent].slice(0, RECENT_COMMANDS) })
    this.speak(r.speech)
    if (r.match.kind === 'exact') this.noteCommand(r.match.command.command, r.match.command.action === 'complete' && p.isActive)
  }

  /** Keeps an acted-on command for the run; a complete ends the run, and a new attempt at the module begins. */
  private noteCommand(command: string, completes: boolean) {
    const run = this.run
    if (!run) return
    if (run.commands.length >= MAX_RUN_COMMANDS) this.endRun()
    const current = this.run ?? { moduleId: run.moduleId, startedAt: this.now(), commands: [] }
    current.commands.push({ command, at: new Date(this.now()).toISOString() })
    this.run = current
    if (completes) {
      this.endRun()
      this.run = { moduleId: run.moduleId, startedAt: this.now(), commands: [] }
    }
  }

  /** Sets who receives each run that ends: said complete, or left for another module after giving commands. */
  setRunEnded(fn: ((run: NewVoiceRun) => void) | null) {
    this.onRunEnded = fn
  }

  /** Hands the run under way, if it acted on anything, to onRunEnded. */
  endRun() {
    const run = this.run
    this.run = null
    if (!run || run.commands.length === 0) return
    this.onRunEnded?.({
      moduleId: run.moduleId,
      startedAt: new Date(run.startedAt).toISOString(),
      endedAt: new Date(this.now()).toISOString(),
      commands: run.commands,
    })
  }

  /** Speaks text (rate 0.9, pitch 1, volume 0.8) when audio is on, and always captions it. */
  speak(text: string) {
    const captions = [...this.snap.captions, { id: ++this.seq, text }].slice(-MAX_CAPTIONS)
    const { synthesis, Utterance } = this.deps
    if (!this.snap.audioOn || !synthesis || !Utterance) {
      this.set({ captions, voiceState: this.afterSpeech() })
      return
    }
    const u = new Utterance(text)
    u.rate = SPEECH.rate
    u.pitch = SPEECH.pitch
    u.volume = SPEECH.volume
    u.lang = SPEECH.lang
    this.speaking++
    const done = () => {
      this.speaking = Math.max(0, this.speaking - 1)
      if (this.speaking === 0 && this.snap.voiceState === 'responding') this.set({ voiceState: this.afterSpeech() })
    }
    u.onend = done
    u.onerror = done
    this.set({ captions, voiceState: 'responding' })
    synthesis.speak(u)
  }

  private afterSpeech(): VoiceState {
    return this.snap.listening ? 'listening' : 'idle'
  }

  dispose() {
    if (this.recognition) {
      this.recognition.onend = null
      this.recognition.onerror = null
      this.recognition.onresult = null
      this.recognition.stop()
    }
    this.deps.synthesis?.cancel()
    this.listeners.clear()
  }
}

export { MESSAGES }
