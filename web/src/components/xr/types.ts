import { z } from 'zod'

/** Session types a training session can run in (spec 001 §9). */
export const sessionTypes = ['desktop', 'vr', 'ar'] as const
export type SessionType = (typeof sessionTypes)[number]

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
  sceneUrl: z.string(),
  scene: sceneSchema,
})
export type XRContent = z.infer<typeof xrContentSchema>

export interface Vec3 {
  x: number
  y: number
  z: number
}
export interface Quat {
  x: number
  y: number
  z: number
  w: number
}

/** The camera or headset pose sent with each update. */
export interface Pose {
  position: Vec3
  rotation: Quat
}

/** How the learner acted: mouse, keyboard, or an XR pointer (ray = controller select or pinch ray, grab = squeeze or pinch nearby). */
export type InputKind = 'mouse' | 'keyboard' | 'ray' | 'grab' | 'touch' | 'other'

/** One recorded learner action (spec 001 §3: timestamp and sessionTime in ms since start). */
export interface Interaction {
  action: string
  objectId?: string
  stepId?: string
  input: InputKind
  timestamp: string
  sessionTime: number
  seq: number
}

export const safetyCheckResultSchema = z.object({ id: z.string(), status: z.enum(['passed', 'skipped']) })
export type SafetyCheckResult = z.infer<typeof safetyCheckResultSchema>

/** The XR session record the server stores (internal/training/session.go). */
export const sessionRecordSchema = z.object({
  id: z.string(),
  userId: z.string().optional(),
  moduleId: z.string(),
  moduleTitle: z.string().optional(),
  sessionType: z.string(),
  deviceType: z.string().optional(),
  startedAt: z.string(),
  endedAt: z.string().nullish(),
  duration: z.number().nullish(),
  completionStatus: z.string().nullish(),
  interactionData: z
    .object({
      interactions: z.array(z.unknown()).nullish(),
      safetyChecks: z.array(safetyCheckResultSchema).nullish(),
      completionStatus: z.string().nullish(),
    })
    .nullish(),
  safetyScore: z.number().nullish(),
  /** Whether the server could verify the ended session (internal/training/verify.go); false while it runs. */
  verified: z.boolean().nullish(),
  /** Why it is not verified, in the learner's words. */
  verificationIssues: z.array(z.string()).nullish(),
})
export type SessionRecord = z.infer<typeof sessionRecordSchema>
