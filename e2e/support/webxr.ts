import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Page } from '@playwright/test'

const require = createRequire(import.meta.url)
/** iwer's self-contained UMD build (gl-matrix bundled): it defines window.IWER. */
export const iwerBuildPath = join(dirname(require.resolve('iwer/package.json')), 'build', 'iwer.min.js')

export interface EmulatorOptions {
  /** Make every requestSession fail, as a browser that refuses the immersive session. */
  failRequests?: boolean
}

/**
 * Installs the iwer WebXR emulator (a Meta Quest 3: immersive-vr and
 * immersive-ar) before the app loads. Chromium ships its own navigator.xr,
 * and iwer leaves a native runtime alone, so it is hidden first — otherwise
 * the emulator silently does nothing.
 */
export async function installWebXREmulator(page: Page, options: EmulatorOptions = {}): Promise<void> {
  await page.addInitScript(() => {
    delete (Navigator.prototype as unknown as { xr?: unknown }).xr
    Object.defineProperty(navigator, 'xr', { value: undefined, configurable: true, writable: true })
  })
  await page.addInitScript({ path: iwerBuildPath })
  await page.addInitScript((opts: EmulatorOptions) => {
    const IWER = (window as unknown as { IWER: any }).IWER
    const device = new IWER.XRDevice(IWER.metaQuest3)
    device.installRuntime()
    ;(window as unknown as { __xrDevice: unknown }).__xrDevice = device
    if (opts.failRequests) {
      const xr = (navigator as unknown as { xr: unknown }).xr as { requestSession: (...a: unknown[]) => Promise<unknown> }
      xr.requestSession = () => Promise.reject(new DOMException('The user denied the immersive session', 'NotAllowedError'))
    }
  }, options)
}

/** Calls the emulated device's remote-control API (iwer RemoteControlInterface). */
export async function xrRemote<T = unknown>(page: Page, method: string, params: Record<string, unknown> = {}): Promise<T> {
  return page.evaluate(
    ([m, p]) => (window as unknown as { __xrDevice: { remote: { dispatch(m: string, p: unknown): Promise<unknown> } } }).__xrDevice.remote.dispatch(m, p),
    [method, params] as const,
  ) as Promise<T>
}

/** Whether the emulated device has a running immersive session. */
export async function xrSessionActive(page: Page): Promise<boolean> {
  return page.evaluate(() => !!(window as unknown as { __xrDevice?: { activeSession?: unknown } }).__xrDevice?.activeSession)
}

/**
 * Points a controller at a scene position (metres, scene origin = XR origin)
 * from just in front of the headset, then pulls its trigger: a controller
 * select, which @react-three/xr turns into a click on the object hit.
 */
export async function selectWithController(
  page: Page,
  target: { x: number; y: number; z: number },
  options: { hand?: 'left' | 'right'; aimed?: () => Promise<void> } = {},
) {
  const hand = options.hand ?? 'right'
  const device = `controller-${hand}`
  await xrRemote(page, 'set_transform', { device, position: { x: hand === 'right' ? 0.15 : -0.15, y: 1.4, z: 0 } })
  await xrRemote(page, 'look_at', { device, target })
  // The ray's hit is computed on the next frames, which are slow in a software-rendered headless browser.
  if (options.aimed) await options.aimed()
  else await page.waitForTimeout(1000)
  await pressSelect(page, device)
}

/**
 * Presses and releases the select input (trigger, or pinch for a hand).
 * iwer's one-shot 'select' can press and release within one frame, which
 * the session never sees at a few frames per second; holding across frames
 * fires selectstart, select and selectend as a real trigger pull does.
 */
export async function pressSelect(page: Page, device: string) {
  await xrRemote(page, 'set_select_value', { device, value: 1 })
  await page.waitForTimeout(600)
  await xrRemote(page, 'set_select_value', { device, value: 0 })
}
