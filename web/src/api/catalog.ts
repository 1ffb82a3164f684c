import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { count, listOf, load, segment, strings, text, useRead, type ReadOptions } from '@/api/parse'

/*
 * The training catalog (internal/catalog, internal/server/catalog.go and
 * sessions.go): trades, training modules, a module's XR content and the
 * scenes. Read-mostly answers, the same for every caller.
 *
 *   GET /api/trade-categories                  → Trade[]
 *   GET /api/training-modules                  → TrainingModule[] in catalog order
 *   GET /api/training-modules/{id}/xr-content  → XRContent {moduleTitle, sceneUrl, scene}
 *   GET /api/xr-scenes/{id}                    → Scene
 */

/** A trade (catalog.Trade). */
export const tradeSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: text,
  /** Industry certifications the trade's training prepares for. */
  certifications: strings,
})
export type Trade = z.infer<typeof tradeSchema>

/** A training module (catalog.Module); a field the server leaves out reads as empty. */
export const trainingModuleSchema = z.object({
  id: z.string(),
  tradeId: text,
  title: z.string(),
  description: text,
  /** beginner, intermediate or advanced. */
  difficulty: text,
  /** Minutes. */
  estimatedDuration: count,
  learningObjectives: strings,
  safetyPoints: strings,
  /** Ids of modules to take first, same trade. */
  prerequisites: strings,
  /** Training categories (technical, onboarding, safety, teamwork, troubleshooting, hazard-recognition). */
  categories: strings,
})
export type TrainingModule = z.infer<typeof trainingModuleSchema>

export const tradesSchema = listOf(tradeSchema, 'GET /api/trade-categories')
export const trainingModulesSchema = listOf(trainingModuleSchema, 'GET /api/training-modules')

const vec3 = z.tuple([z.number(), z.number(), z.number()])

/** One drawable, interactable thing of a scene (internal/training/scene.go). */
export const sceneObjectSchema = z.object({
  id: z.string(),
  label: z.string(),
  shape: z.enum(['box', 'cylinder', 'sphere', 'cone', 'torus']),
  position: vec3,
  rotation: vec3,
  size: vec3,
  color: z.string(),
})
export type SceneObject = z.infer<typeof sceneObjectSchema>

export const stepSchema = z.object({
  id: z.string(),
  instruction: z.string(),
  target: z.string(),
  action: z.enum(['click', 'grab']),
  safetyCheckId: z.string().optional(),
  /** The least time the step takes, from the moment it becomes current (internal/training Step.MinDurationMs); absent: none. */
  minDurationMs: z.number().optional(),
})
export type Step = z.infer<typeof stepSchema>

export const safetyCheckSchema = z.object({
  id: z.string(),
  description: z.string(),
  weight: z.number(),
})
export type SafetyCheck = z.infer<typeof safetyCheckSchema>

/**
 * A training scene. Objects and steps are parsed whole: a scene missing one
 * cannot be trained in, and its page says so rather than show part of it.
 */
export const sceneSchema = z.object({
  id: z.string(),
  title: z.string(),
  tradeIds: z.array(z.string()).default([]),
  environment: z.string().default(''),
  objects: z.array(sceneObjectSchema),
  steps: z.array(stepSchema),
  safetyChecks: z.array(safetyCheckSchema),
  passCriteria: z.object({ requiredSteps: z.array(z.string()), minSafetyScore: z.number() }),
})
export type Scene = z.infer<typeof sceneSchema>

/** GET /api/training-modules/{id}/xr-content. */
export const xrContentSchema = z.object({
  moduleTitle: z.string(),
  /** Where the scene alone can be fetched again. */
  sceneUrl: z.string(),
  scene: sceneSchema,
})
export type XRContent = z.infer<typeof xrContentSchema>

/** One key per answer. */
export const catalogKeys = {
  trades: ['/api/trade-categories'] as const,
  modules: ['/api/training-modules'] as const,
  xrContent: (moduleId: string) => ['/api/training-modules', moduleId, 'xr-content'] as const,
  scene: (sceneId: string) => ['/api/xr-scenes', sceneId] as const,
}

export const tradesQueryOptions = () => queryOptions({ queryKey: catalogKeys.trades, queryFn: () => load('/api/trade-categories', tradesSchema) })

export const trainingModulesQueryOptions = () =>
  queryOptions({ queryKey: catalogKeys.modules, queryFn: () => load('/api/training-modules', trainingModulesSchema) })

/** A module's XR content; fetched only once a module is chosen (spec 001 §7). */
export const xrContentQueryOptions = (moduleId: string) =>
  queryOptions({
    queryKey: catalogKeys.xrContent(moduleId),
    queryFn: () => load(`/api/training-modules/${segment(moduleId)}/xr-content`, xrContentSchema),
    enabled: moduleId !== '',
  })

export const sceneQueryOptions = (sceneId: string) =>
  queryOptions({ queryKey: catalogKeys.scene(sceneId), queryFn: () => load(`/api/xr-scenes/${segment(sceneId)}`, sceneSchema) })

/** The trades (GET /api/trade-categories). */
export function useTrades<R = Trade[]>(options: ReadOptions<Trade[], R> = {}) {
  return useRead(tradesQueryOptions(), options)
}

/** The module catalog (GET /api/training-modules). */
export function useTrainingModules<R = TrainingModule[]>(options: ReadOptions<TrainingModule[], R> = {}) {
  return useRead(trainingModulesQueryOptions(), options)
}

/** A module's XR content; nothing is fetched while moduleId is ''. */
export function useXRContent(moduleId: string) {
  return useQuery(xrContentQueryOptions(moduleId))
}
