import type { RecognitionLike, RecognitionResultEventLike, SpeechDeps, UtteranceLike } from '@/features/voice-xr/lib/voice-session'

/** A scriptable SpeechRecognition for tests: say() delivers results, end() and fail() end it. */
export class FakeRecognition implements RecognitionLike {
  static instances: FakeRecognition[] = []
  continuous = false
  interimResults = false
  lang = ''
  started = 0
  stopped = 0
  onresult: ((e: RecognitionResultEventLike) => void) | null = null
  onend: (() => void) | null = null
  onerror: ((e: { error?: string }) => void) | null = null
  constructor() {
    FakeRecognition.instances.push(this)
  }
  start() {
    this.started++
  }
  stop() {
    this.stopped++
  }
  say(transcript: string, isFinal = true) {
    this.onresult?.({ resultIndex: 0, results: [{ isFinal, 0: { transcript } }] })
  }
  end() {
    this.onend?.()
  }
  fail(error = 'network') {
    this.onerror?.({ error })
  }
}

export class FakeUtterance implements UtteranceLike {
  rate = 1
  pitch = 1
  volume = 1
  lang = ''
  onend: (() => void) | null = null
  onerror: (() => void) | null = null
  constructor(public text: string) {}
}

/** A speechSynthesis that records what it was asked to say; finish() ends the current utterance. */
export class FakeSynthesis {
  spoken: FakeUtterance[] = []
  private pending: FakeUtterance[] = []
  cancelled = 0
  speak(u: FakeUtterance) {
    this.spoken.push(u)
    this.pending.push(u)
  }
  cancel() {
    this.cancelled++
  }
  /** Ends every utterance still being spoken. */
  finish() {
    const done = this.pending
    this.pending = []
    for (const u of done) u.onend?.()
  }
  get texts() {
    return this.spoken.map((u) => u.text)
  }
}

export function fakeSpeech(opts: { recognition?: boolean } = {}) {
  FakeRecognition.instances = []
  const synthesis = new FakeSynthesis()
  const deps: SpeechDeps = {
    Recognition: opts.recognition === false ? undefined : FakeRecognition,
    synthesis,
    Utterance: FakeUtterance,
  }
  return { deps, synthesis, recognition: () => FakeRecognition.instances[0] }
}
