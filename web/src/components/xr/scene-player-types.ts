import type { InputKind, Pose, Scene } from '@/components/xr/types'
import type { StepStatus } from '@/components/xr/training-run'

/** Immersive modes the player can enter. */
export type ImmersiveMode = 'immersive-vr' | 'immersive-ar'

/** What the player lets its host do; handed over through onReady once the 3D view exists. */
export interface ScenePlayerHandle {
  /** Requests an immersive session; rejects if the browser refuses. Call it from a user gesture. */
  enterXR(mode: ImmersiveMode): Promise<void>
  /** Ends the immersive session, if any. */
  exitXR(): void
  /** The current camera or headset pose in scene metres. */
  getPose(): Pose
}

/** Props of the 3D scene player (loaded lazily: see ScenePlayer in scene-player-lazy). */
export interface ScenePlayerProps {
  scene: Scene
  /** Step states by step id; the current step's target is highlighted. */
  stepStatus: Record<string, StepStatus>
  currentStepId?: string
  /** The instruction shown in the scene itself (for headsets, where the page is out of sight). */
  instruction?: string
  /** Whether activating objects records interactions (false: a preview). */
  interactive: boolean
  onActivate(objectId: string, input: InputKind): void
  /** In-scene Skip and End buttons, shown during an immersive session. */
  onSkip?(): void
  onEnd?(): void
  /** In-scene Emergency Stop, shown during an immersive session when given. */
  onEmergency?(): void
  /**
   * A safety alert to show in an immersive session, where the page's alert
   * dialog is out of sight: a panel in front of the learner with an
   * Acknowledge button.
   */
  safetyAlert?: { text: string; onAcknowledge(): void }
  /** The label of the object under the pointer, or null. */
  onHover?(label: string | null): void
  onReady?(handle: ScenePlayerHandle | null): void
  /** Called when an immersive session ends on the device's side (headset removed, system menu). */
  onXRSessionEnd?(): void
  className?: string
}
