import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState } from 'react'
import { Canvas, useFrame, useThree, type ThreeEvent } from '@react-three/fiber'
import { XR, createXRStore, useXR } from '@react-three/xr'
import { OrbitControls } from '@react-three/drei'
import * as THREE from 'three'
import type { ScenePlayerHandle, ScenePlayerProps } from '@/components/xr/scene-player-types'
import type { InputKind, Pose, SceneObject } from '@/components/xr/types'
import type { StepStatus } from '@/components/xr/training-run'
import { cn } from '@/lib/utils'

/** Longest press of a trigger, squeeze or pinch that still counts as a click (the library's default is 300 ms). */
const XR_CLICK_MS = 2000

const HIGHLIGHT = new THREE.Color('#f59e0b')
const DONE = new THREE.Color('#16a34a')
const BLACK = new THREE.Color('#000000')

function inputKind(event: ThreeEvent<MouseEvent>): InputKind {
  const type = String((event as unknown as { pointerType?: string }).pointerType ?? (event.nativeEvent as PointerEvent | undefined)?.pointerType ?? '')
  if (type.includes('ray')) return 'ray'
  if (type.includes('grab')) return 'grab'
  if (type.includes('touch')) return 'touch'
  if (type.includes('mouse') || type === 'pen' || type === '') return 'mouse'
  return 'other'
}

function Geometry({ object }: { object: SceneObject }) {
  const [a, b, c] = object.size
  switch (object.shape) {
    case 'box':
      return <boxGeometry args={[a, b, c]} />
    case 'cylinder':
      return <cylinderGeometry args={[a, a, b, 24]} />
    case 'sphere':
      return <sphereGeometry args={[a, 24, 16]} />
    case 'cone':
      return <coneGeometry args={[a, b, 24]} />
    case 'torus':
      return <torusGeometry args={[a, b, 12, 32]} />
  }
}

/** Half the object's height, so the beacon floats just above it. */
function topOf(object: SceneObject): number {
  const [a, b] = object.size
  switch (object.shape) {
    case 'box':
    case 'cylinder':
    case 'cone':
      return b / 2
    case 'sphere':
    case 'torus':
      return a
  }
}

function SceneThing(props: {
  object: SceneObject
  status?: StepStatus
  highlighted: boolean
  interactive: boolean
  onActivate(objectId: string, input: InputKind): void
  onHover?(label: string | null): void
}) {
  const { object, highlighted, interactive, status } = props
  const material = useRef<THREE.MeshStandardMaterial>(null)
  const beacon = useRef<THREE.Mesh>(null)
  const invalidate = useThree((s) => s.invalidate)
  // The canvas renders on demand: a change of state draws one frame.
  useEffect(() => {
    const m = material.current
    if (!m) return
    if (highlighted) {
      m.emissive.copy(HIGHLIGHT)
    } else if (status === 'done') {
      m.emissive.copy(DONE)
      m.emissiveIntensity = 0.25
    } else {
      m.emissive.copy(BLACK)
      m.emissiveIntensity = 0
    }
    invalidate()
  }, [highlighted, status, invalidate])
  // Only the highlighted target moves (a pulse and a bobbing beacon): it asks
  // for the next frame while it does, so an idle scene draws nothing.
  useFrame(({ clock }) => {
    const m = material.current
    if (!m || !highlighted) return
    m.emissiveIntensity = 0.35 + 0.35 * Math.sin(clock.elapsedTime * 4)
    if (beacon.current) beacon.current.position.y = topOf(object) + 0.18 + 0.04 * Math.sin(clock.elapsedTime * 3)
    invalidate()
  })
  return (
    <group position={object.position} rotation={new THREE.Euler(...object.rotation)}>
      <mesh
        name={object.id}
        userData={{ label: object.label }}
        castShadow
        onClick={(e) => {
          if (!interactive) return
          e.stopPropagation()
          props.onActivate(object.id, inputKind(e))
        }}
        onPointerOver={(e) => {
          e.stopPropagation()
          props.onHover?.(object.label)
        }}
        onPointerOut={() => props.onHover?.(null)}
      >
        <Geometry object={object} />
        <meshStandardMaterial ref={material} color={object.color} roughness={0.6} metalness={0.2} />
      </mesh>
      {highlighted ? (
        <mesh ref={beacon} position={[0, topOf(object) + 0.18, 0]} rotation={[Math.PI, 0, 0]} raycast={() => null}>
          <coneGeometry args={[0.06, 0.14, 12]} />
          <meshBasicMaterial color="#f59e0b" />
        </mesh>
      ) : null}
    </group>
  )
}

/** Wraps text into lines that fit maxWidth on a 2D canvas. */
function wrap(ctx: CanvasRenderingContext2D, text: string, maxWidth: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word
    if (ctx.measureText(next).width > maxWidth && line) {
      lines.push(line)
      line = word
    } else {
      line = next
    }
  }
  if (line) lines.push(line)
  return lines
}

/** Draws `text` centred on `canvas`, as large as fits. */
function drawText(canvas: HTMLCanvasElement, text: string, background: string) {
  const ctx = canvas.getContext('2d')
  if (!ctx) return
  ctx.fillStyle = background
  ctx.fillRect(0, 0, canvas.width, canvas.height)
  ctx.fillStyle = '#f8fafc'
  let size = 56
  let lines: string[] = []
  do {
    ctx.font = `600 ${size}px system-ui, sans-serif`
    lines = wrap(ctx, text, canvas.width - 64)
    size -= 4
  } while (lines.length * size * 1.25 > canvas.height - 32 && size > 20)
  ctx.textBaseline = 'middle'
  ctx.textAlign = 'center'
  const lineHeight = (size + 4) * 1.25
  const top = canvas.height / 2 - ((lines.length - 1) * lineHeight) / 2
  lines.forEach((l, i) => ctx.fillText(l, canvas.width / 2, top + i * lineHeight))
}

/**
 * A flat panel of text drawn on a canvas texture: no font file, nothing
 * fetched, readable inside a headset where the page is out of sight.
 */
function TextPanel(props: {
  text: string
  position: [number, number, number]
  width: number
  height: number
  background?: string
  onClick?(): void
  name?: string
  /** Drawn over everything else, never hidden inside a scene object. */
  overlay?: boolean
}) {
  const { text, width, height, background = 'rgba(15,23,42,0.88)' } = props
  const invalidate = useThree((s) => s.invalidate)
  // A new text draws a new texture; the old one is freed and the scene redrawn once.
  const texture = useMemo(() => {
    const canvas = document.createElement('canvas')
    canvas.width = 1024
    canvas.height = Math.round((1024 * height) / width)
    drawText(canvas, text, background)
    const t = new THREE.CanvasTexture(canvas)
    t.colorSpace = THREE.SRGBColorSpace
    return t
  }, [text, background, width, height])
  useEffect(() => {
    invalidate()
    return () => texture.dispose()
  }, [texture, invalidate])
  return (
    <mesh
      name={props.name}
      position={props.position}
      renderOrder={props.overlay ? 10 : 0}
      onClick={
        props.onClick
          ? (e) => {
              e.stopPropagation()
              props.onClick?.()
            }
          : undefined
      }
    >
      <planeGeometry args={[width, height]} />
      <meshBasicMaterial map={texture} transparent toneMapped={false} depthTest={!props.overlay} />
    </mesh>
  )
}

/** Keeps the latest camera (or headset) pose for session updates. */
function PoseTracker({ onPose }: { onPose: (pose: Pose) => void }) {
  const p = useMemo(() => new THREE.Vector3(), [])
  const q = useMemo(() => new THREE.Quaternion(), [])
  useFrame(({ camera, gl }) => {
    const cam = gl.xr.isPresenting ? gl.xr.getCamera() : camera
    cam.getWorldPosition(p)
    cam.getWorldQuaternion(q)
    onPose({
      position: { x: round(p.x), y: round(p.y), z: round(p.z) },
      rotation: { x: round(q.x), y: round(q.y), z: round(q.z), w: round(q.w) },
    })
  })
  return null
}

const round = (n: number) => Math.round(n * 1000) / 1000

function SceneContents(props: ScenePlayerProps & { onPose: (pose: Pose) => void }) {
  const { scene, stepStatus, currentStepId, interactive } = props
  const mode = useXR((s) => s.mode)
  const inXR = mode === 'immersive-vr' || mode === 'immersive-ar'
  const target = scene.steps.find((s) => s.id === currentStepId)?.target
  const statusOf = useMemo(() => {
    const byObject: Record<string, StepStatus> = {}
    for (const step of scene.steps) if (stepStatus[step.id] === 'done') byObject[step.target] = 'done'
    return byObject
  }, [scene, stepStatus])
  return (
    <>
      {mode !== 'immersive-ar' ? <color attach="background" args={['#0f172a']} /> : null}
      <ambientLight intensity={0.6} />
      <directionalLight position={[3, 6, 4]} intensity={1.2} />
      {mode !== 'immersive-ar' ? (
        <mesh rotation={[-Math.PI / 2, 0, 0]} receiveShadow raycast={() => null}>
          <planeGeometry args={[16, 16]} />
          <meshStandardMaterial color="#334155" />
        </mesh>
      ) : null}
      {scene.objects.map((object) => (
        <SceneThing
          key={object.id}
          object={object}
          status={statusOf[object.id]}
          highlighted={interactive && object.id === target}
          interactive={interactive}
          onActivate={props.onActivate}
          onHover={props.onHover}
        />
      ))}
      {props.instruction ? <TextPanel name="instruction-panel" text={props.instruction} position={[0, 2.45, -2.6]} width={2.2} height={0.45} /> : null}
      {inXR && interactive ? (
        <>
          {props.onSkip ? (
            <TextPanel name="skip-button" text="Skip step" position={[-0.45, 0.95, -0.7]} width={0.36} height={0.14} background="#475569" onClick={props.onSkip} />
          ) : null}
          {props.onEmergency ? (
            <TextPanel name="emergency-button" text="Emergency Stop" position={[0, 0.95, -0.7]} width={0.36} height={0.14} background="#dc2626" onClick={props.onEmergency} />
          ) : null}
          {props.onEnd ? (
            <TextPanel name="end-button" text="End Session" position={[0.45, 0.95, -0.7]} width={0.36} height={0.14} background="#b91c1c" onClick={props.onEnd} />
          ) : null}
        </>
      ) : null}
      {inXR && props.safetyAlert ? (
        // The page's alert dialog is out of sight in a headset: the alert stands in front of the learner until acknowledged here or on the page.
        <>
          <TextPanel name="safety-alert-panel" text={props.safetyAlert.text} position={[0, 1.5, -1]} width={1.1} height={0.34} background="#b91c1c" overlay />
          <TextPanel
            name="safety-alert-acknowledge"
            text="Acknowledge"
            position={[0, 1.24, -1]}
            width={0.4}
            height={0.13}
            background="#b45309"
            overlay
            onClick={props.safetyAlert.onAcknowledge}
          />
        </>
      ) : null}
      {!inXR ? <OrbitControls target={[0, 1, -1.5]} maxPolarAngle={Math.PI / 2 - 0.05} minDistance={0.5} maxDistance={8} makeDefault /> : null}
      <PoseTracker onPose={props.onPose} />
    </>
  )
}

/**
 * The 3D training scene: draws the scene's objects from data, highlights the
 * current step's target and reports activations — mouse clicks on desktop,
 * controller select (ray) or squeeze (grab) and hand pinch in VR/AR, all
 * through @react-three/xr's pointer events.
 */
export default function ScenePlayer(props: ScenePlayerProps) {
  const [store] = useState(() =>
    createXRStore({
      // Never inject @react-three/xr's own emulator: tests use iwer, users their device.
      emulate: false,
      offerSession: false,
      enterGrantedSession: false,
      // Controller layouts come from our own copy of the WebXR input profiles, never the
      // library's default CDN; no controller or hand models are loaded (the rays still show).
      baseAssetPath: new URL('/xr-input-profiles/', window.location.href).href,
      // A deliberate trigger pull or pinch (gloved hands, a slow frame) still counts as a click.
      controller: { teleportPointer: false, model: false, rayPointer: { clickThresholdMs: XR_CLICK_MS }, grabPointer: { clickThresholdMs: XR_CLICK_MS } },
      hand: { teleportPointer: false, model: false, rayPointer: { clickThresholdMs: XR_CLICK_MS }, grabPointer: { clickThresholdMs: XR_CLICK_MS } },
    }),
  )
  const pose = useRef<Pose>({ position: { x: 0, y: 1.6, z: 2.2 }, rotation: { x: 0, y: 0, z: 0, w: 1 } })
  const { onReady, onXRSessionEnd } = props
  const trackPose = useCallback((latest: Pose) => {
    pose.current = latest
  }, [])
  const onSessionEnd = useEffectEvent(() => onXRSessionEnd?.())

  useEffect(() => {
    let previous = store.getState().session
    const unsubscribe = store.subscribe((state) => {
      if (previous && !state.session) onSessionEnd()
      previous = state.session
    })
    return unsubscribe
  }, [store])

  useEffect(() => {
    const handle: ScenePlayerHandle = {
      async enterXR(mode) {
        const session = await store.enterXR(mode)
        if (!session) throw new Error(`${mode} session was not granted`)
      },
      exitXR() {
        void store.getState().session?.end().catch(() => {})
      },
      getPose: () => pose.current,
    }
    onReady?.(handle)
    return () => onReady?.(null)
  }, [store, onReady])

  useEffect(() => () => store.getState().session?.end().catch(() => {}) as unknown as void, [store])

  // The canvas is drawn at a fixed size in px, which would make that size the
  // box's minimum: a grid or flex parent could then never narrow it when the
  // window does (1280 → 375 px left the page 811 px wide). Containing its
  // inline size leaves the width to the parent, and fiber follows it.
  return (
    <div className={cn('relative h-[420px] w-full overflow-hidden rounded-lg border border-white/10 bg-slate-900 [contain:inline-size]', props.className)}>
      {/*
        On demand: a frame is drawn when something changes (props, the orbit
        controls, the highlight's pulse), not 60 times a second while the page
        sits idle. An immersive session is unaffected: fiber hands rendering to
        the XR session's own loop, which draws every frame the headset asks for.
      */}
      <Canvas
        frameloop="demand"
        camera={{ position: [0, 1.7, 2.2], fov: 60, near: 0.05, far: 100 }}
        dpr={[1, 1.5]}
        aria-label={`3D training scene: ${props.scene.title}`}
        role="img"
        onPointerMissed={() => props.onHover?.(null)}
      >
        <XR store={store}>
          <SceneContents {...props} onPose={trackPose} />
        </XR>
      </Canvas>
    </div>
  )
}
