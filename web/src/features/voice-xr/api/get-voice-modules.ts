import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'

/** A voice command of a module (spec 001 §3): the phrase, its action and a spoken description. */
export const voiceCommandSchema = z.object({
  command: z.string(),
  action: z.string(),
  description: z.string(),
})
export type VoiceCommand = z.infer<typeof voiceCommandSchema>

/** GET /api/voice-modules item (internal/voice.Module). */
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

export async function getVoiceModules(): Promise<VoiceModule[]> {
  const res = await apiRequest('GET', '/api/voice-modules')
  return z.array(voiceModuleSchema).parse(await res.json())
}

export const voiceModulesQueryOptions = () => queryOptions({ queryKey: ['/api/voice-modules'], queryFn: getVoiceModules })

export function useVoiceModules() {
  return useQuery(voiceModulesQueryOptions())
}
