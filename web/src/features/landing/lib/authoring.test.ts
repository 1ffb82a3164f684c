import { describe, expect, it } from 'vitest'
import {
  AUTHORING_STORAGE_KEY,
  GRID_COLUMNS,
  authoringReducer,
  initialAuthoringState,
  loadScene,
  saveScene,
  scriptFlow,
  type AuthoringState,
} from './authoring'

const run = (state: AuthoringState, ...actions: Parameters<typeof authoringReducer>[1][]) => actions.reduce(authoringReducer, state)

describe('authoringReducer', () => {
  it('adds an object from the palette on a free cell, selected, haptics on', () => {
    const s = run(initialAuthoringState(), { type: 'add', kind: 'hazard' })
    const added = s.objects.at(-1)!
    expect(added).toMatchObject({ id: 'obj-4', kind: 'hazard', name: 'Hazard Zone 2', x: 0, y: 0, interaction: 'proximity', safety: 'high', haptic: true })
    expect(s.selectedId).toBe('obj-4')
    expect(s.dirty).toBe(true)
  })

  it('ignores unknown palette kinds', () => {
    const s0 = initialAuthoringState()
    expect(run(s0, { type: 'add', kind: 'spaceship' })).toBe(s0)
  })

  it('updates the properties of one object', () => {
    const s = run(initialAuthoringState(), { type: 'update', id: 'obj-2', patch: { name: 'Padlock', interaction: 'proximity', safety: 'low', haptic: false } })
    expect(s.objects[1]).toMatchObject({ name: 'Padlock', interaction: 'proximity', safety: 'low', haptic: false })
    expect(s.objects[0].name).toBe('Electrical Panel')
  })

  it('moves within the grid and never onto another object', () => {
    let s = run(initialAuthoringState(), { type: 'move', id: 'obj-1', dx: -5, dy: 0 })
    expect(s.objects[0]).toMatchObject({ x: 0, y: 1 })
    s = run(s, { type: 'move', id: 'obj-3', dx: 10, dy: 0 })
    expect(s.objects[2].x).toBe(GRID_COLUMNS - 1)
    const blocked = run(initialAuthoringState(), { type: 'move', id: 'obj-2', dx: 0, dy: 0 }, { type: 'update', id: 'obj-2', patch: {} })
    const into = run(blocked, { type: 'move', id: 'obj-1', dx: 3, dy: 1 }) // obj-2 sits at (4, 2)
    expect(into.objects[0]).toMatchObject({ x: 1, y: 1 })
  })

  it('removes an object and selects another', () => {
    const s = run(initialAuthoringState(), { type: 'remove', id: 'obj-1' })
    expect(s.objects.map((o) => o.id)).toEqual(['obj-2', 'obj-3'])
    expect(s.selectedId).toBe('obj-2')
  })

  it('freezes edits while previewing', () => {
    const previewing = run(initialAuthoringState(), { type: 'togglePreview' })
    expect(previewing.preview).toBe(true)
    expect(run(previewing, { type: 'add', kind: 'tool' }, { type: 'remove', id: 'obj-1' }, { type: 'move', id: 'obj-1', dx: 1, dy: 0 })).toBe(previewing)
    expect(run(previewing, { type: 'togglePreview' }).preview).toBe(false)
  })

  it('counts deployments and clears unsaved edits', () => {
    const s = run(initialAuthoringState(), { type: 'add', kind: 'tool' }, { type: 'deployed' }, { type: 'deployed' })
    expect(s.deployedVersion).toBe(2)
    expect(s.dirty).toBe(false)
  })
})

describe('scriptFlow', () => {
  it('follows the interaction, safety level and haptics', () => {
    const [panel, padlock] = initialAuthoringState().objects
    expect(scriptFlow(panel)).toEqual(['On Click', 'Safety Check (high)', 'Haptic Pulse', 'Stop & Warn', 'Score Step'])
    expect(scriptFlow({ ...padlock, haptic: false })).toEqual(['On Grab', 'Safety Check (medium)', 'Show Instruction', 'Score Step'])
  })
})

describe('scene storage', () => {
  it('round-trips through storage', () => {
    const store = new Map<string, string>()
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) }
    const s = run(initialAuthoringState(), { type: 'add', kind: 'audio' }, { type: 'deployed' })
    saveScene(storage, s)
    const loaded = loadScene(storage)!
    expect(loaded.objects).toEqual(s.objects)
    expect(loaded.deployedVersion).toBe(1)
    expect(loaded.nextId).toBe(5)
  })

  it('ignores a missing or corrupt scene', () => {
    expect(loadScene({ getItem: () => null })).toBeNull()
    expect(loadScene({ getItem: () => '{not json' })).toBeNull()
    expect(loadScene({ getItem: (k) => (k === AUTHORING_STORAGE_KEY ? '{"objects":[{"id":1}],"nextId":1,"deployedVersion":0}' : null) })).toBeNull()
  })
})
