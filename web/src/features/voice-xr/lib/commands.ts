import type { VoiceCommand, VoiceModule } from '@/api/voice'

/** The spoken messages of spec 001 §8, exactly. */
export const MESSAGES = {
  notSupported:
    'Voice recognition is not supported in this browser. Please use Chrome, Safari, or Edge for voice-activated training.',
  notRecognized: 'Command not recognized. Try saying: ',
  fuzzy: 'I think you meant: ',
  emergency: 'Emergency stop activated. Training module paused for safety.',
} as const

/** Speech synthesis settings (spec 001 §7). */
export const SPEECH = { rate: 0.9, pitch: 1, volume: 0.8, lang: 'en-US' } as const

/** Recent voice commands kept (spec 001 §9) and commands a module card shows. */
export const RECENT_COMMANDS = 5
export const SHOWN_COMMANDS = 6

/** The learner's place in the active module. */
export interface ModuleProgress {
  moduleId: string
  /** 0 before start, then 1…totalSteps. */
  currentStep: number
  /** False once an emergency stop paused the module. */
  isActive: boolean
}

export type Match =
  | { kind: 'exact'; command: VoiceCommand }
  | { kind: 'fuzzy'; command: VoiceCommand }
  | { kind: 'none' }

/** Lower-cases a transcript and drops punctuation and extra spaces, as recognisers add them ("Next step."). */
export function normalize(transcript: string): string {
  return transcript
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

/**
 * Spec 001 §5: the transcript matches a command if it is a substring of the
 * command phrase; failing that, any single word of a command that the
 * transcript contains makes that command a fuzzy guess. Commands are tried
 * in the module's order.
 */
export function matchCommand(transcript: string, commands: VoiceCommand[]): Match {
  const said = normalize(transcript)
  if (said === '') return { kind: 'none' }
  const exact = commands.find((c) => normalize(c.command).includes(said))
  if (exact) return { kind: 'exact', command: exact }
  const words = new Set(said.split(' '))
  const fuzzy = commands.find((c) => normalize(c.command).split(' ').some((w) => words.has(w)))
  if (fuzzy) return { kind: 'fuzzy', command: fuzzy }
  return { kind: 'none' }
}

export interface Outcome {
  progress: ModuleProgress
  speech: string
}

function stepText(m: VoiceModule, step: number): string {
  return `Step ${step} of ${m.totalSteps}: ${m.steps[step - 1] ?? ''}`
}

function firstOf(m: VoiceModule, action: string): string {
  return m.voiceCommands.find((c) => c.action === action)?.command ?? m.voiceCommands[0].command
}

/**
 * Spec 001 §4: start sets step 1; next advances up to totalSteps; repeat
 * re-reads the current instructions; emergency sets the module inactive;
 * complete sets the step to the total; any other action only speaks a
 * confirmation. A module paused by an emergency stop moves again only when
 * restarted, so a stray "next step" cannot walk past a safety stop.
 */
export function applyCommand(m: VoiceModule, p: ModuleProgress, c: VoiceCommand): Outcome {
  const paused = !p.isActive
  const restart = `Say "${firstOf(m, 'start')}" to begin.`
  switch (c.action) {
    case 'start':
      return { progress: { ...p, currentStep: 1, isActive: true }, speech: `Starting ${m.name}. ${stepText(m, 1)}` }
    case 'emergency':
      return { progress: { ...p, isActive: false }, speech: MESSAGES.emergency }
    case 'next': {
      if (paused) return { progress: p, speech: `${m.name} is paused for safety. ${restart}` }
      if (p.currentStep === 0) return { progress: p, speech: `${m.name} has not started. ${restart}` }
      if (p.currentStep >= m.totalSteps) {
        return { progress: p, speech: `That was the last step. Say "${firstOf(m, 'complete')}" when you are done.` }
      }
      const step = p.currentStep + 1
      return { progress: { ...p, currentStep: step }, speech: stepText(m, step) }
    }
    case 'repeat':
      if (p.currentStep === 0) return { progress: p, speech: `${m.name} has not started. ${restart}` }
      return { progress: p, speech: stepText(m, p.currentStep) }
    case 'complete':
      if (paused) return { progress: p, speech: `${m.name} is paused for safety. ${restart}` }
      return { progress: { ...p, currentStep: m.totalSteps }, speech: `${m.name} complete. All ${m.totalSteps} steps done.` }
    case 'help':
      return { progress: p, speech: `You can say: ${m.voiceCommands.map((x) => x.command).join(', ')}.` }
    case 'status':
      return {
        progress: p,
        speech: p.currentStep === 0 ? `${m.name} has not started.` : `You are on step ${p.currentStep} of ${m.totalSteps}.`,
      }
    default:
      return { progress: p, speech: `Confirmed: ${c.description}.` }
  }
}

export interface Response extends Outcome {
  match: Match
}

/** What the assistant does with one utterance while module m is the active one. */
export function respond(m: VoiceModule, p: ModuleProgress, transcript: string): Response {
  const match = matchCommand(transcript, m.voiceCommands)
  switch (match.kind) {
    case 'exact':
      return { match, ...applyCommand(m, p, match.command) }
    case 'fuzzy':
      return { match, progress: p, speech: MESSAGES.fuzzy + match.command.description }
    default:
      return { match, progress: p, speech: MESSAGES.notRecognized + m.voiceCommands[0].command }
  }
}

/** Progress in percent: step ÷ total steps (spec 001 §4). */
export function progressPercent(m: VoiceModule, p: ModuleProgress): number {
  return Math.round((p.currentStep / m.totalSteps) * 100)
}
