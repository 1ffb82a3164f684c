import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'
import { count, listOf, load, text, useRead, type ReadOptions } from '@/api/parse'

/*
 * Voice training modules (internal/voice):
 *
 *   GET /api/voice-modules → voice.Module[]
 *   POST /api/voice-training/runs ← voice.NewRun → 201 store.VoiceRun
 *   GET /api/voice-training/runs → {runs: store.VoiceRun[]}, newest first
 *
 * The learner's step and active module are browser state until a run ends;
 * then the commands it acted on are sent, and the server replays them to
 * work out the steps walked, completion and score.
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

/** A stored voice run (store.VoiceRun): what the server replayed from the commands sent. */
export const voiceRunSchema = z.object({
  id: z.string(),
  moduleId: z.string(),
  moduleName: text,
  startedAt: text,
  endedAt: text,
  totalSteps: count,
  stepsWalked: count,
  completed: z.boolean().catch(false),
  emergencyStops: count,
  score: count,
  passed: z.boolean().catch(false),
  createdAt: text,
})
export type VoiceRun = z.infer<typeof voiceRunSchema>

export const voiceRunsSchema = z.object({ runs: listOf(voiceRunSchema, 'GET /api/voice-training/runs').catch([]) }).transform((a) => a.runs)

/** A finished run as sent (voice.NewRun): each command is a phrase of the module's, matched exactly, with when it was said. */
export interface NewVoiceRun {
  moduleId: string
  startedAt: string
  endedAt: string
  commands: { command: string; at: string }[]
}

export const voiceKeys = {
  modules: ['/api/voice-modules'] as const,
  runs: ['/api/voice-training/runs'] as const,
}

export const voiceModulesQueryOptions = () => queryOptions({ queryKey: voiceKeys.modules, queryFn: () => load('/api/voice-modules', voiceModulesSchema) })

export function useVoiceModules() {
  return useQuery(voiceModulesQueryOptions())
}

export const voiceRunsQueryOptions = () => queryOptions({ queryKey: voiceKeys.runs, queryFn: () => load('/api/voice-training/runs', voiceRunsSchema) })

/** The learner's stored voice runs, newest first. */
export function useVoiceRuns<R = VoiceRun[]>(options?: ReadOptions<VoiceRun[], R>) {
  return useRead(voiceRunsQueryOptions(), options)
}

/** POST /api/voice-training/runs → the stored run, which heads the list from now on. */
export function useSaveVoiceRun() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (run: NewVoiceRun) => {
      const res = await apiRequest('POST', '/api/voice-training/runs', run)
      return voiceRunSchema.parse(await res.json())
    },
    onSuccess: (saved) => queryClient.setQueryData<VoiceRun[]>(voiceKeys.runs, (old) => [saved, ...(old ?? [])]),
  })
}
