import type { VoiceModule } from '@/api/voice'

/** A module shaped like the server's (internal/voice), small enough to reason about in tests. */
export const ladder: VoiceModule = {
  id: 'construction-ladder-safety',
  name: 'Portable Ladder Setup and Climbing',
  type: 'safety procedure',
  trade: 'construction',
  difficulty: 'beginner',
  description: 'Ladder safety.',
  totalSteps: 3,
  steps: ['Inspect the rails and rungs.', 'Set the feet one foot out for every four feet of height.', 'Climb facing the ladder.'],
  voiceCommands: [
    { command: 'start inspection', action: 'start', description: 'Begin the ladder procedure at step one' },
    { command: 'next step', action: 'next', description: 'Move on to the next step' },
    { command: 'repeat step', action: 'repeat', description: 'Hear the current step again' },
    { command: 'emergency stop', action: 'emergency', description: 'Stop the procedure and pause the module for safety' },
    { command: 'ladder complete', action: 'complete', description: 'Confirm the ladder is set and the climb is done' },
    { command: 'help', action: 'help', description: 'List the commands you can say' },
    { command: 'ladder secured', action: 'confirm', description: 'Confirm the top of the ladder is tied off' },
    { command: 'status report', action: 'status', description: 'Hear which step you are on' },
  ],
}

export const mig: VoiceModule = {
  ...ladder,
  id: 'welding-mig-setup',
  name: 'MIG (GMAW) Machine Setup',
  voiceCommands: ladder.voiceCommands.map((c) =>
    c.action === 'start' ? { ...c, command: 'start setup' } : c.action === 'complete' ? { ...c, command: 'setup complete' } : c,
  ),
}
