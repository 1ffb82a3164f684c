// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest'
import { fakeSpeech } from '@/features/voice-xr/lib/fakes'
import { ladder, mig } from '@/features/voice-xr/lib/test-modules'
import type { NewVoiceRun } from '@/api/voice'
import { VoiceSession, browserSpeech } from '@/features/voice-xr/lib/voice-session'

function setup(opts: { recognition?: boolean } = {}) {
  const f = fakeSpeech(opts)
  const s = new VoiceSession(f.deps)
  s.setModules([ladder, mig])
  return { ...f, s, snap: () => s.getSnapshot() }
}

describe('VoiceSession', () => {
  let t: ReturnType<typeof setup>
  beforeEach(() => {
    t = setup()
  })

  it('starts idle and supported', () => {
    expect(t.snap().voiceState).toBe('idle')
    expect(t.snap().supported).toBe(true)
    expect(t.snap().audioOn).toBe(true)
  })

  it('listens continuously in en-US with interim results', () => {
    t.s.startListening()
    const r = t.recognition()
    expect(r.continuous).toBe(true)
    expect(r.lang).toBe('en-US')
    expect(r.interimResults).toBe(true)
    expect(r.started).toBe(1)
    expect(t.snap().voiceState).toBe('listening')
    expect(t.snap().listening).toBe(true)
  })

  it('speaks at rate 0.9, pitch 1, volume 0.8 and captions it', () => {
    t.s.activate(ladder.id)
    const u = t.synthesis.spoken.at(-1)!
    expect([u.rate, u.pitch, u.volume, u.lang]).toEqual([0.9, 1, 0.8, 'en-US'])
    expect(u.text).toBe('Portable Ladder Setup and Climbing activated. Say "start inspection" to begin.')
    expect(t.snap().captions.at(-1)?.text).toBe(u.text)
  })

  it('moves idle → listening → processing → responding → listening on a command', () => {
    t.s.activate(ladder.id)
    t.synthesis.finish()
    t.s.startListening()
    const states: string[] = []
    t.s.subscribe(() => states.push(t.snap().voiceState))
    t.recognition().say('start inspection')
    expect(states).toContain('processing')
    expect(t.snap().voiceState).toBe('responding')
    expect(t.synthesis.texts.at(-1)).toBe('Starting Portable Ladder Setup and Climbing. Step 1 of 3: Inspect the rails and rungs.')
    t.synthesis.finish()
    expect(t.snap().voiceState).toBe('listening')
    expect(t.snap().progress).toEqual({ moduleId: ladder.id, currentStep: 1, isActive: true })
  })

  it('ignores what it hears while it is speaking (its own voice through the speakers)', () => {
    t.s.activate(ladder.id)
    t.s.startListening()
    t.recognition().say('Portable Ladder Setup and Climbing activated. Say start inspection to begin.')
    expect(t.snap().recent).toHaveLength(0)
    t.synthesis.finish()
    t.recognition().say('start inspection')
    expect(t.snap().progress?.currentStep).toBe(1)
  })

  it('shows interim results as the live transcript without acting on them', () => {
    t.s.activate(ladder.id)
    t.synthesis.finish()
    t.s.startListening()
    t.recognition().say('next', false)
    expect(t.snap().transcript).toBe('next')
    expect(t.snap().recent).toHaveLength(0)
  })

  it.each([
    ['ending', (r: ReturnType<typeof t.recognition>) => r.end()],
    ['failing', (r: ReturnType<typeof t.recognition>) => r.fail('network')],
  ])('recognition %s returns to idle and stops listening', (_, stop) => {
    t.s.startListening()
    stop(t.recognition())
    expect(t.snap().voiceState).toBe('idle')
    expect(t.snap().listening).toBe(false)
  })

  it('a denied microphone says so, and what to do', () => {
    t.s.startListening()
    t.recognition().fail('not-allowed')
    expect(t.snap().error).toBe(
      "Microphone access was denied. Allow this site to use the microphone in your browser's site settings (reached from the address bar), then press Start Voice Control again. You can still type commands in the box below.",
    )
  })

  it.each([
    ['audio-capture', /^No microphone was found, or it could not be used\. .*then press Start Voice Control again\./],
    ['not-allowed', /^Microphone access was denied\. Allow this site/],
    ['service-not-allowed', /^Microphone access was denied\. Allow this site/],
    ['network', /^The speech recognition service could not be reached\./],
    ['no-speech', /^No speech was heard/],
    ['aborted', /^Voice control was stopped\./],
    ['language-not-supported', /^This browser cannot recognise US English speech\./],
    ['bad-grammar', /^Voice control stopped unexpectedly\./],
    [undefined, /^Voice control stopped unexpectedly\./],
  ])('recognition error %s is told in words, not as its code', (code, message) => {
    t.s.startListening()
    t.recognition().onerror?.({ error: code })
    expect(t.snap().error).toMatch(message)
    if (code) expect(t.snap().error).not.toContain(code)
    expect(t.snap().error).not.toMatch(/\([a-z-]+\)/)
    // Starting again clears it.
    t.s.startListening()
    expect(t.snap().error).toBeNull()
  })

  it('stop voice control stops the recogniser', () => {
    t.s.startListening()
    t.s.stopListening()
    expect(t.recognition().stopped).toBe(1)
    expect(t.snap().voiceState).toBe('idle')
  })

  it('drives every rule through speech: start, next, repeat, emergency, complete, fuzzy, unrecognised', () => {
    t.s.activate(ladder.id)
    t.synthesis.finish()
    t.s.startListening()
    const say = (text: string) => {
      t.recognition().say(text)
      t.synthesis.finish()
      return t.synthesis.texts.at(-1)
    }
    expect(say('start inspection')).toBe('Starting Portable Ladder Setup and Climbing. Step 1 of 3: Inspect the rails and rungs.')
    expect(say('next step')).toBe('Step 2 of 3: Set the feet one foot out for every four feet of height.')
    expect(say('repeat step')).toBe('Step 2 of 3: Set the feet one foot out for every four feet of height.')
    expect(say('emergency stop')).toBe('Emergency stop activated. Training module paused for safety.')
    expect(t.snap().progress?.isActive).toBe(false)
    expect(say('start inspection')).toContain('Step 1 of 3')
    expect(say('ladder complete')).toBe('Portable Ladder Setup and Climbing complete. All 3 steps done.')
    expect(t.snap().progress?.currentStep).toBe(3)
    expect(say('can we go to the next one')).toBe('I think you meant: Move on to the next step')
    expect(say('hello')).toBe('Command not recognized. Try saying: start inspection')
    expect(say('ladder secured')).toBe('Confirmed: Confirm the top of the ladder is tied off.')
  })

  it('keeps the last 5 commands, newest first', () => {
    t.s.activate(ladder.id)
    for (const c of ['start inspection', 'next step', 'repeat step', 'hello', 'go next please', 'status report']) t.s.handleTranscript(c)
    expect(t.snap().recent.map((h) => [h.transcript, h.match])).toEqual([
      ['status report', 'exact'],
      ['go next please', 'fuzzy'],
      ['hello', 'none'],
      ['repeat step', 'exact'],
      ['next step', 'exact'],
    ])
  })

  it('audio off speaks nothing but still captions, and goes straight back', () => {
    t.s.activate(ladder.id)
    t.s.setAudio(false)
    expect(t.synthesis.cancelled).toBe(1)
    const before = t.synthesis.spoken.length
    t.s.handleTranscript('start inspection')
    expect(t.synthesis.spoken.length).toBe(before)
    expect(t.snap().captions.at(-1)?.text).toContain('Step 1 of 3')
    expect(t.snap().voiceState).toBe('idle')
  })

  it('a typed command without an active module asks for one', () => {
    t.s.handleTranscript('next step')
    expect(t.synthesis.texts.at(-1)).toBe('Activate a training module first, then say its start command.')
  })

  it('activating another module starts it at step 0', () => {
    t.s.activate(ladder.id)
    t.s.handleTranscript('start inspection')
    t.s.activate(mig.id)
    expect(t.snap().progress).toEqual({ moduleId: mig.id, currentStep: 0, isActive: true })
    t.s.handleTranscript('start inspection')
    expect(t.synthesis.texts.at(-1)).toBe('I think you meant: Begin the ladder procedure at step one')
  })

  it('without SpeechRecognition it is unsupported and cannot listen, but typed commands work', () => {
    const u = setup({ recognition: false })
    expect(u.snap().supported).toBe(false)
    u.s.startListening()
    expect(u.snap().listening).toBe(false)
    u.s.activate(ladder.id)
    u.s.handleTranscript('start inspection')
    expect(u.snap().progress?.currentStep).toBe(1)
  })
})

describe('browserSpeech', () => {
  it('finds the prefixed recogniser', () => {
    class R {}
    const w = { webkitSpeechRecognition: R, speechSynthesis: {}, SpeechSynthesisUtterance: class {} } as unknown as Window
    expect(browserSpeech(w).Recognition).toBe(R)
  })
  it('reports none in jsdom', () => {
    expect(browserSpeech(window).Recognition).toBeUndefined()
  })
})

describe('VoiceSession runs', () => {
  function runs() {
    const f = fakeSpeech({})
    let clock = Date.parse('2026-03-01T09:00:00Z')
    const s = new VoiceSession(f.deps, () => (clock += 1000))
    s.setModules([ladder, mig])
    const ended: NewVoiceRun[] = []
    s.setRunEnded((r) => ended.push(r))
    return { s, ended }
  }

  it('ends a run with the exact commands acted on when the learner says complete', () => {
    const { s, ended } = runs()
    s.activate(ladder.id)
    s.handleTranscript('start inspection')
    s.handleTranscript('next ladder') // a near match: acts on nothing
    s.handleTranscript('Next step.')
    s.handleTranscript('ladder complete')
    expect(ended).toHaveLength(1)
    expect(ended[0].moduleId).toBe(ladder.id)
    expect(ended[0].commands.map((c) => c.command)).toEqual(['start inspection', 'next step', 'ladder complete'])
    expect(ended[0].startedAt < ended[0].commands[0].at).toBe(true)
    expect(ended[0].commands.at(-1)!.at <= ended[0].endedAt).toBe(true)
  })

  it('a complete while paused by an emergency stop ends nothing', () => {
    const { s, ended } = runs()
    s.activate(ladder.id)
    s.handleTranscript('start inspection')
    s.handleTranscript('emergency stop')
    s.handleTranscript('ladder complete')
    expect(ended).toHaveLength(0)
  })

  it('switching module ends the run under way early, and a run without commands is not sent', () => {
    const { s, ended } = runs()
    s.activate(ladder.id)
    s.activate(mig.id)
    expect(ended).toHaveLength(0)
    s.handleTranscript('start setup')
    s.activate(ladder.id)
    expect(ended.map((r) => [r.moduleId, r.commands.length])).toEqual([[mig.id, 1]])
  })
})
