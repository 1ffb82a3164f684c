import { setNonce } from 'get-nonce'
import { z } from 'zod'

// What the server's Content-Security-Policy (internal/server/headers.go) asks
// of the app. Import it first, before anything renders or parses.

// No eval (script-src 'self'): zod otherwise probes `new Function` for its
// compiled fast path, and even the caught failure is reported as a policy
// violation. Jitless parsing does without it.
z.config({ jitless: true })

/**
 * The nonce the server put in this page's style-src and, through Vite's
 * html.cspNonce, on the page's <meta property="csp-nonce">. <style> elements
 * the app creates carry it: Radix's scroll lock (react-remove-scroll, under
 * every dialog and select) writes one whose rules depend on the scrollbar
 * width, and the select's viewport writes another. Undefined where no server
 * set one (the Vite dev server, tests), where no policy needs it.
 */
export const cspNonce: string | undefined =
  document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined

// react-style-singleton, under react-remove-scroll, reads it from here.
if (cspNonce) setNonce(cspNonce)
