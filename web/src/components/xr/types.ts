/**
 * The XR pieces' types. The server's answers are described once, by the
 * modules of src/api (the catalog's scenes, the session records); these
 * names are kept for the components that use them.
 */
export type { SceneObject, Step, SafetyCheck, Scene, XRContent } from '@/api/catalog'
export type { SessionType, Vec3, Quat, Pose, InputKind, Interaction, SafetyCheckResult, SessionRecord } from '@/api/xr-sessions'
