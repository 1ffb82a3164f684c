/**
 * The reusable XR pieces: the session launcher (modes, record lifecycle, step
 * list), the lazily loaded 3D scene player, the XR capability check, and the
 * note that says whether the server verified a session.
 * Nothing here imports three.js eagerly: scene-player is its own chunk.
 */
export { XRSessionLauncher, DEFAULT_MODULE_TITLE, DEFAULT_MODULE_ID, type XRSessionLauncherProps } from '@/components/xr/xr-session-launcher'
export { ScenePlayer, preloadScenePlayer } from '@/components/xr/scene-player-lazy'
export { SessionVerification, UNVERIFIED_CONSEQUENCE, type SessionVerificationProps } from '@/components/xr/session-verification'
export type { ScenePlayerHandle, ScenePlayerProps, ImmersiveMode } from '@/components/xr/scene-player-types'
export { useXRCapabilities, checkXRCapabilities, type XRCapabilities } from '@/components/xr/use-xr-capabilities'
export type { Scene, SceneObject, Step, SessionRecord, SessionType, Interaction, XRContent } from '@/components/xr/types'
