import { z } from 'zod'
import { authoringPalette, interactionTypes, safetyLevels, type InteractionType, type SafetyLevel } from '@/content/landing'

/** The workspace grid the mock scene's objects sit on. */
export const GRID_COLUMNS = 8
export const GRID_ROWS = 5
/** The most objects the mock scene holds, so the workspace stays legible. */
export const MAX_OBJECTS = 16

export const sceneObjectSchema = z.object({
  id: z.string(),
  kind: z.string(),
  name: z.string().max(60),
  x: z.number().int().min(0).max(GRID_COLUMNS - 1),
  y: z.number().int().min(0).max(GRID_ROWS - 1),
  interaction: z.enum(interactionTypes),
  safety: z.enum(safetyLevels),
  haptic: z.boolean(),
})
export type SceneObject = z.infer<typeof sceneObjectSchema>

export const sceneSchema = z.object({
  objects: z.array(sceneObjectSchema).max(MAX_OBJECTS),
  nextId: z.number().int().min(1),
  deployedVersion: z.number().int().min(0),
})

export interface AuthoringState {
  objects: SceneObject[]
  nextId: number
  selectedId: string | null
  preview: boolean
  /** Edits not yet saved. */
  dirty: boolean
  deployedVersion: number
}

export type AuthoringAction =
  | { type: 'add'; kind: string }
  | { type: 'select'; id: string | null }
  | { type: 'update'; id: string; patch: Partial<Pick<SceneObject, 'name' | 'interaction' | 'safety' | 'haptic'>> }
  | { type: 'move'; id: string; dx: number; dy: number }
  | { type: 'remove'; id: string }
  | { type: 'togglePreview' }
  | { type: 'saved' }
  | { type: 'deployed' }

/** The sample scene a new studio opens with: an electrical panel lockout. */
export function initialAuthoringState(): AuthoringState {
  return {
    objects: [
      { id: 'obj-1', kind: 'model', name: 'Electrical Panel', x: 1, y: 1, interaction: 'click', safety: 'high', haptic: true },
      { id: 'obj-2', kind: 'tool', name: 'Lockout Padlock', x: 4, y: 2, interaction: 'grab', safety: 'medium', haptic: true },
      { id: 'obj-3', kind: 'hazard', name: 'Arc Flash Boundary', x: 6, y: 3, interaction: 'proximity', safety: 'high', haptic: true },
    ],
    nextId: 4,
    selectedId: 'obj-1',
    preview: false,
    dirty: false,
    deployedVersion: 0,
  }
}

/** A new object of each kind starts with the interaction a learner most likely uses on it. */
const defaults: Record<string, { interaction: InteractionType; safety: SafetyLevel }> = {
  model: { interaction: 'click', safety: 'medium' },
  tool: { interaction: 'grab', safety: 'medium' },
  hazard: { interaction: 'proximity', safety: 'high' },
  instruction: { interaction: 'click', safety: 'low' },
  audio: { interaction: 'proximity', safety: 'low' },
  checkpoint: { interaction: 'click', safety: 'medium' },
}

function freeCell(objects: SceneObject[]): { x: number; y: number } | null {
  for (let y = 0; y < GRID_ROWS; y++)
    for (let x = 0; x < GRID_COLUMNS; x++) if (!objects.some((o) => o.x === x && o.y === y)) return { x, y }
  return null
}

const clamp = (v: number, max: number) => Math.min(Math.max(v, 0), max)

/** The studio's state transitions. Preview freezes the scene: edits are ignored while it runs. */
export function authoringReducer(state: AuthoringState, action: AuthoringAction): AuthoringState {
  const editing = !state.preview
  switch (action.type) {
    case 'add': {
      const item = authoringPalette.find((p) => p.kind === action.kind)
      const cell = freeCell(state.objects)
      if (!editing || !item || !cell || state.objects.length >= MAX_OBJECTS) return state
      const count = state.objects.filter((o) => o.kind === item.kind).length + 1
      const object: SceneObject = { id: `obj-${state.nextId}`, kind: item.kind, name: `${item.label} ${count}`, ...cell, ...defaults[item.kind], haptic: true }
      return { ...state, objects: [...state.objects, object], nextId: state.nextId + 1, selectedId: object.id, dirty: true }
    }
    case 'select':
      return { ...state, selectedId: action.id }
    case 'update':
      if (!editing) return state
      return { ...state, objects: state.objects.map((o) => (o.id === action.id ? { ...o, ...action.patch } : o)), dirty: true }
    case 'move': {
      if (!editing) return state
      const target = state.objects.find((o) => o.id === action.id)
      if (!target) return state
      const x = clamp(target.x + action.dx, GRID_COLUMNS - 1)
      const y = clamp(target.y + action.dy, GRID_ROWS - 1)
      if (state.objects.some((o) => o.id !== target.id && o.x === x && o.y === y)) return state
      return { ...state, objects: state.objects.map((o) => (o.id === target.id ? { ...o, x, y } : o)), dirty: true }
    }
    case 'remove': {
      if (!editing) return state
      const objects = state.objects.filter((o) => o.id !== action.id)
      const selectedId = state.selectedId === action.id ? (objects[0]?.id ?? null) : state.selectedId
      return { ...state, objects, selectedId, dirty: true }
    }
    case 'togglePreview':
      return { ...state, preview: !state.preview }
    case 'saved':
      return { ...state, dirty: false }
    case 'deployed':
      return { ...state, deployedVersion: state.deployedVersion + 1, dirty: false }
  }
}

/** The visual-script nodes of an object: what happens when a learner meets it. */
export function scriptFlow(object: SceneObject): string[] {
  const trigger = { click: 'On Click', grab: 'On Grab', proximity: 'On Proximity' }[object.interaction]
  const nodes = [trigger, `Safety Check (${object.safety})`]
  if (object.haptic) nodes.push('Haptic Pulse')
  nodes.push(object.safety === 'high' ? 'Stop & Warn' : 'Show Instruction', 'Score Step')
  return nodes
}

/** Where the studio keeps its scene in this browser. */
export const AUTHORING_STORAGE_KEY = 'journeyman-authoring-scene'

/** The stored scene, or null when there is none or it is not valid. */
export function loadScene(storage: Pick<Storage, 'getItem'>): AuthoringState | null {
  try {
    const raw = storage.getItem(AUTHORING_STORAGE_KEY)
    if (!raw) return null
    const scene = sceneSchema.parse(JSON.parse(raw))
    return { ...scene, selectedId: scene.objects[0]?.id ?? null, preview: false, dirty: false }
  } catch {
    return null
  }
}

export function saveScene(storage: Pick<Storage, 'setItem'>, state: AuthoringState): void {
  storage.setItem(AUTHORING_STORAGE_KEY, JSON.stringify({ objects: state.objects, nextId: state.nextId, deployedVersion: state.deployedVersion }))
}
