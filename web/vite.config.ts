/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os'
import { fileURLToPath, URL } from 'node:url'
import { defineConfig, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'

const backend = 'http://127.0.0.1:8080'

/**
 * @pmndrs/xr imports its WebXR emulator (and ~7 MB of room scans) lazily for
 * development; the scene player turns emulation off, so nothing would ever
 * load them, yet they would be built and embedded in the binary. A stub
 * keeps them out.
 */
function dropXREmulator(): Plugin {
  const stub = '\0xr-emulate-stub'
  return {
    name: 'drop-xr-emulator',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === './emulate.js' && importer?.includes('@pmndrs/xr')) return stub
      return null
    },
    load(id) {
      if (id !== stub) return null
      return "export function emulate() { throw new Error('WebXR emulation is not part of this build') }"
    },
  }
}

export default defineConfig({
  plugins: [dropXREmulator(), react(), tailwindcss()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  html: {
    // Vite puts this on the page's tags and on <meta property="csp-nonce">;
    // the server replaces it with a fresh nonce in every answer of the page
    // (internal/server/app.go), the one its Content-Security-Policy admits.
    cspNonce: 'JOURNEYMAN_CSP_NONCE',
  },
  build: {
    outDir: 'dist',
    // The Makefile re-creates dist/.gitkeep after each build.
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // zod decides at each schema's construction whether it may compile
          // the schema with new Function, which the Content-Security-Policy
          // forbids; src/lib/csp.ts tells it not to. A chunk runs all its
          // modules when first imported, so a schema built at the top of a
          // module sharing zod's chunk was made before csp.ts had run, and
          // every page reported a policy violation. zod and csp.ts get a
          // chunk of their own: the setting comes before any schema.
          groups: [{ name: 'zod', test: /node_modules[\\/]zod[\\/]|src[\\/]lib[\\/]csp\.ts$/ }],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': backend,
      '/ws': { target: backend, ws: true },
      '/healthz': backend,
    },
  },
  test: {
    globals: true,
    css: false,
    restoreMocks: true,
    // Component tests drive whole flows (a session start to end, a form's
    // every field) through jsdom; on a busy 2-core machine one such flow
    // takes longer than the 5 s default without anything being wrong.
    testTimeout: 15_000,
    // Vitest keeps a core for its main thread by default, which on a 2-core
    // machine runs the files one at a time; the main thread only gathers
    // results, so every core runs tests (make test: 228 s → 155 s here).
    maxWorkers: availableParallelism(),
    // A jsdom window costs about a second per test file on a busy 2-core
    // machine, most of vitest's time; logic (*.test.ts) runs without one.
    // A logic test that needs a DOM says so in a first-line docblock:
    // @vitest-environment jsdom.
    projects: [
      { extends: true, test: { name: 'dom', include: ['src/**/*.test.tsx'], environment: 'jsdom', setupFiles: ['./src/test/setup.ts'] } },
      { extends: true, test: { name: 'logic', include: ['src/**/*.test.ts'], environment: 'node' } },
    ],
  },
})
