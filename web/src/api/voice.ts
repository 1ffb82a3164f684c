import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { listOf, load } from '@/api/parse'

/*
 * Voice training modules (internal/voice):
 *
 *   GET /api/voice-modules → voice.Module[]
 *
 * The learner's step and active module are browser state.
 */

/** A voice command of a module (spec 001 §3): the phrase, its action and a spoken description. */
export const voiceCommandSchema = z.object({
  command: z.string(),
  action: z.string(),
  description: z.string(),
})
export type VoiceCommand = z.infer<typeof voiceCommandSchema>

/** A voice training module (voice.Module). One without steps or commands cannot be trained by voice and is left out of the list. */
export const voiceModuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  trade: z.string(),
  difficulty: z.string(),
  description: z.string(),
  totalSteps: z.number().int().positive(),
  steps: z.array(z.string()),
  voiceCommands: z.array(voiceCommandSchema).min(1),
})
export type VoiceModule = z.infer<typeof voiceModuleSchema>

export const voiceModulesSchema = listOf(voiceModuleSchema, 'GET /api/voice-modules')

export const voiceKeys = {
  modules: ['/api/voice-modules'] as const,
}

export const voiceModulesQueryOptions = () => queryOptions({ queryKey: voiceKeys.modules, queryFn: () => load('/api/voice-modules', voiceModulesSchema) })

export function useVoiceModules() {
  return useQuery(voiceModulesQueryOptions())
}
