import { lazy } from 'react'

/** Starts downloading the 3D player's chunk (three, fiber, xr) ahead of need. */
export const preloadScenePlayer = () => import('@/components/xr/scene-player')

/**
 * The 3D scene player, in its own chunk so that only pages that show 3D
 * download three.js.
 */
export const ScenePlayer = lazy(preloadScenePlayer)
