import { useEffect, useId, useReducer, type KeyboardEvent } from 'react'
import { ArrowRight, Box, CheckCircle2, Eye, Hand, Music, Rocket, Save, ShieldAlert, Square, Trash2, Wrench } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { authoringPalette, authoringSummary, interactionTypes, safetyLevels, type InteractionType, type SafetyLevel } from '@/content/landing'
import { toast } from '@/hooks/use-toast'
import { cn } from '@/lib/utils'
import {
  GRID_COLUMNS,
  GRID_ROWS,
  MAX_OBJECTS,
  authoringReducer,
  initialAuthoringState,
  loadScene,
  saveScene,
  scriptFlow,
  type SceneObject,
} from '../lib/authoring'

/** Unsaved edits are saved this long after the last one. */
const AUTO_SAVE_DELAY_MS = 1500

const kindIcons: Record<string, typeof Box> = { model: Box, tool: Wrench, hazard: ShieldAlert, instruction: Square, audio: Music, checkpoint: CheckCircle2 }
const safetyColors: Record<SafetyLevel, string> = { high: 'border-red-400 bg-red-500/25', medium: 'border-amber-400 bg-amber-500/25', low: 'border-emerald-400 bg-emerald-500/25' }
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

function storage(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

/**
 * XR Content Authoring Studio (#authoring): the spec's mock editor with
 * working controls. The scene lives in this browser (local storage): Save
 * and auto-save keep it, Preview freezes it and plays its scripts, Deploy
 * stamps a version. Objects move with the arrow keys and go with Delete.
 */
export function AuthoringStudio() {
  const [state, dispatch] = useReducer(authoringReducer, undefined, () => {
    const s = storage()
    return (s && loadScene(s)) || initialAuthoringState()
  })
  const id = useId()
  const selected = state.objects.find((o) => o.id === state.selectedId) ?? null

  const save = (announce: boolean) => {
    const s = storage()
    if (s) saveScene(s, state)
    dispatch({ type: 'saved' })
    if (announce) toast({ title: 'Scene saved', description: `${state.objects.length} objects saved in this browser.` })
  }

  useEffect(() => {
    if (!state.dirty) return
    const timer = setTimeout(() => {
      const s = storage()
      if (s) saveScene(s, state)
      dispatch({ type: 'saved' })
    }, AUTO_SAVE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [state])

  const deploy = () => {
    if (state.objects.length === 0) {
      toast({ title: 'Nothing to deploy', description: 'Add at least one object to the scene first.', variant: 'destructive' })
      return
    }
    const version = state.deployedVersion + 1
    const s = storage()
    if (s) saveScene(s, { ...state, deployedVersion: version })
    dispatch({ type: 'deployed' })
    toast({ title: `Version ${version} deployed`, description: 'The scene is published to your learners’ training library.' })
  }

  const onObjectKey = (object: SceneObject) => (event: KeyboardEvent) => {
    const moves: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }
    const move = moves[event.key]
    if (move) {
      event.preventDefault()
      dispatch({ type: 'move', id: object.id, dx: move[0], dy: move[1] })
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault()
      dispatch({ type: 'remove', id: object.id })
    }
  }

  const saveStatus = state.dirty ? 'Unsaved changes' : 'All changes saved'

  return (
    <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
      <h2 id="authoring-title" className="text-3xl font-bold text-white sm:text-4xl">
        XR Content Authoring Studio
      </h2>
      <p className="mt-3 max-w-2xl text-slate-300">
        Build training scenes without code: drop in equipment, set how learners interact with it and how safety is enforced.
      </p>

      <div className="mt-8 overflow-hidden rounded-xl border border-white/10 bg-slate-900/80">
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-white/10 px-4 py-3" role="group" aria-label="Studio">
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={() => save(true)} disabled={state.preview}>
              <Save aria-hidden="true" />
              Save
            </Button>
            <Button size="sm" variant="secondary" aria-pressed={state.preview} onClick={() => dispatch({ type: 'togglePreview' })}>
              <Eye aria-hidden="true" />
              Preview
            </Button>
            <Button size="sm" variant="secondary" onClick={deploy} disabled={state.preview}>
              <Rocket aria-hidden="true" />
              Deploy
            </Button>
          </div>
          <div className="flex flex-wrap items-center gap-3 text-sm">
            {state.deployedVersion > 0 && <span className="text-sky-300" data-testid="deployed-version">Deployed v{state.deployedVersion}</span>}
            <span className="text-slate-400" role="status" aria-live="polite">
              {saveStatus}
            </span>
            <span className="flex items-center gap-1.5 text-emerald-300">
              <span className="h-2 w-2 rounded-full bg-emerald-400" aria-hidden="true" />
              Auto-save enabled
            </span>
          </div>
        </div>

        <div className="grid lg:grid-cols-[14rem_1fr_16rem]">
          <div className="border-b border-white/10 p-4 lg:border-b-0 lg:border-r">
            <h3 className="text-sm font-semibold uppercase tracking-wide text-slate-400">Components</h3>
            <ul className="mt-3 grid gap-2" aria-label="Component palette">
              {authoringPalette.map((item) => {
                const Icon = kindIcons[item.kind]
                return (
                  <li key={item.kind}>
                    <button
                      type="button"
                      aria-label={`Add ${item.label}`}
                      title={item.description}
                      disabled={state.preview || state.objects.length >= MAX_OBJECTS}
                      onClick={() => dispatch({ type: 'add', kind: item.kind })}
                      className="flex w-full items-center gap-2 rounded-md border border-white/10 bg-white/5 px-3 py-2 text-left text-sm text-slate-100 hover:bg-white/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 disabled:opacity-50"
                    >
                      <Icon className="h-4 w-4 text-amber-400" aria-hidden="true" />
                      {item.label}
                    </button>
                  </li>
                )
              })}
            </ul>
          </div>

          <div className="border-b border-white/10 p-4 lg:border-b-0">
            <div className="flex items-center justify-between">
              <h3 id={`${id}-workspace`} className="text-sm font-semibold uppercase tracking-wide text-slate-400">
                3D Workspace {state.preview && <span className="ml-2 text-sky-300 normal-case">Preview running</span>}
              </h3>
              <p className="text-xs text-slate-400">Select an object; arrow keys move it, Delete removes it.</p>
            </div>
            <div
              role="group"
              aria-labelledby={`${id}-workspace`}
              data-testid="workspace"
              className="relative mt-3 aspect-[8/5] rounded-lg border border-white/10 bg-[linear-gradient(rgba(255,255,255,0.06)_1px,transparent_1px),linear-gradient(90deg,rgba(255,255,255,0.06)_1px,transparent_1px)] bg-slate-950 [perspective:800px]"
              style={{ backgroundSize: `${100 / GRID_COLUMNS}% ${100 / GRID_ROWS}%` }}
            >
              {state.objects.map((object) => {
                const Icon = kindIcons[object.kind] ?? Box
                const isSelected = object.id === state.selectedId
                return (
                  <button
                    key={object.id}
                    type="button"
                    aria-pressed={isSelected}
                    aria-label={`${object.name}, ${object.interaction}, ${object.safety} safety, column ${object.x + 1} row ${object.y + 1}`}
                    data-testid={`scene-object-${object.id}`}
                    onClick={() => dispatch({ type: 'select', id: object.id })}
                    onKeyDown={onObjectKey(object)}
                    className={cn(
                      'absolute flex flex-col items-center justify-center gap-1 rounded-md border-2 p-1 text-[10px] font-medium text-white transition-all focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300',
                      safetyColors[object.safety],
                      isSelected && 'ring-2 ring-white',
                      state.preview && 'animate-pulse',
                    )}
                    style={{
                      left: `${(object.x / GRID_COLUMNS) * 100}%`,
                      top: `${(object.y / GRID_ROWS) * 100}%`,
                      width: `${100 / GRID_COLUMNS}%`,
                      height: `${100 / GRID_ROWS}%`,
                    }}
                  >
                    <Icon className="h-4 w-4" aria-hidden="true" />
                    <span className="line-clamp-1 max-w-full">{object.name}</span>
                  </button>
                )
              })}
              {state.objects.length === 0 && (
                <p className="absolute inset-0 flex items-center justify-center text-sm text-slate-400">Add a component from the palette.</p>
              )}
            </div>

            <h3 className="mt-5 text-sm font-semibold uppercase tracking-wide text-slate-400">Visual Scripting</h3>
            {selected ? (
              <ol className="mt-2 flex flex-wrap items-center gap-2" aria-label={`Script of ${selected.name}`} data-testid="script-flow">
                {scriptFlow(selected).map((node, i) => (
                  <li key={node} className="flex items-center gap-2">
                    {i > 0 && <ArrowRight className="h-4 w-4 text-slate-500" aria-hidden="true" />}
                    <span className="rounded-md border border-sky-400/40 bg-sky-500/10 px-2.5 py-1 text-xs text-sky-100">{node}</span>
                  </li>
                ))}
              </ol>
            ) : (
              <p className="mt-2 text-sm text-slate-400">Select an object to see its script.</p>
            )}
            <p className="mt-4 font-mono text-xs text-slate-400">{authoringSummary}</p>
          </div>

          <div className="border-white/10 p-4 lg:border-l">
            <h3 className="text-sm font-semibold uppercase tracking-wide text-slate-400">Properties</h3>
            {selected ? (
              <div className="mt-3 space-y-4" data-testid="properties">
                <div className="space-y-1.5">
                  <Label htmlFor={`${id}-name`}>Object name</Label>
                  <Input
                    id={`${id}-name`}
                    value={selected.name}
                    maxLength={60}
                    disabled={state.preview}
                    onChange={(e) => dispatch({ type: 'update', id: selected.id, patch: { name: e.target.value } })}
                  />
                </div>
                <div className="space-y-1.5">
                  <Label htmlFor={`${id}-interaction`}>Interaction type</Label>
                  <Select
                    value={selected.interaction}
                    disabled={state.preview}
                    onValueChange={(v) => dispatch({ type: 'update', id: selected.id, patch: { interaction: v as InteractionType } })}
                  >
                    <SelectTrigger id={`${id}-interaction`}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {interactionTypes.map((t) => (
                        <SelectItem key={t} value={t}>
                          {capitalize(t)}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                </div>
                <div className="space-y-1.5">
                  <Label htmlFor={`${id}-safety`}>Safety level</Label>
                  <Select
                    value={selected.safety}
                    disabled={state.preview}
                    onValueChange={(v) => dispatch({ type: 'update', id: selected.id, patch: { safety: v as SafetyLevel } })}
                  >
                    <SelectTrigger id={`${id}-safety`}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {safetyLevels.map((l) => (
                        <SelectItem key={l} value={l}>
                          {capitalize(l)}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                </div>
                <div className="flex items-center gap-2">
                  <Checkbox
                    id={`${id}-haptic`}
                    checked={selected.haptic}
                    disabled={state.preview}
                    onCheckedChange={(checked) => dispatch({ type: 'update', id: selected.id, patch: { haptic: checked === true } })}
                  />
                  <Label htmlFor={`${id}-haptic`} className="flex items-center gap-1.5">
                    <Hand className="h-4 w-4 text-amber-400" aria-hidden="true" />
                    Haptic feedback
                  </Label>
                </div>
                <Button variant="outline" size="sm" disabled={state.preview} onClick={() => dispatch({ type: 'remove', id: selected.id })}>
                  <Trash2 aria-hidden="true" />
                  Remove object
                </Button>
              </div>
            ) : (
              <p className="mt-3 text-sm text-slate-400">Nothing selected.</p>
            )}
          </div>
        </div>
      </div>
    </div>
  )
}
