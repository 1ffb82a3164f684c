import { useEffect, useState } from 'react'

/** What the browser offers for XR (spec 001 §3: XR capabilities). */
export interface XRCapabilities {
  checked: boolean
  supportsVR: boolean
  supportsAR: boolean
  supportedSessionModes: string[]
}

const desktopOnly: XRCapabilities = { checked: true, supportsVR: false, supportsAR: false, supportedSessionModes: [] }

interface XRSystemLike {
  isSessionSupported(mode: string): Promise<boolean>
}

/**
 * Asks the browser which immersive modes it supports. No WebXR, or any
 * failure of the check, means desktop only (spec 001 §8).
 */
export async function checkXRCapabilities(xr: XRSystemLike | undefined = (navigator as Navigator & { xr?: XRSystemLike }).xr): Promise<XRCapabilities> {
  if (!xr || typeof xr.isSessionSupported !== 'function') return desktopOnly
  try {
    const [vr, ar] = await Promise.all([xr.isSessionSupported('immersive-vr'), xr.isSessionSupported('immersive-ar')])
    const modes = [vr && 'immersive-vr', ar && 'immersive-ar'].filter((m): m is string => typeof m === 'string')
    return { checked: true, supportsVR: vr === true, supportsAR: ar === true, supportedSessionModes: modes }
  } catch (err) {
    console.warn('XR capability check failed; desktop only', err)
    return desktopOnly
  }
}

/** The browser's XR capabilities; unchecked (nothing supported) until the check finishes. */
export function useXRCapabilities(): XRCapabilities {
  const [caps, setCaps] = useState<XRCapabilities>({ ...desktopOnly, checked: false })
  useEffect(() => {
    let live = true
    void checkXRCapabilities().then((c) => {
      if (live) setCaps(c)
    })
    return () => {
      live = false
    }
  }, [])
  return caps
}
