// ESLint for the web app; `make lint-web` runs it in `make test`.
import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

// A feature may use another feature only through that feature's index.ts,
// so its internals can change without breaking the pages that embed it.
// Relative imports may not climb out of the feature: from
// features/X/file one `../` leaves it, from features/X/dir/file two do.
function featureBoundary(feature) {
  return [1, 2].map((depth) => ({
    files: [`src/features/${feature}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^@/features/(?!${feature}(/|$))[^/]+/`,
              message: "Import another feature through its index.ts (`@/features/<name>`), not its internals.",
            },
            {
              regex: `^${'\\.\\./'.repeat(depth)}`,
              message: 'Relative imports stay inside the feature; use `@/…` for shared code.',
            },
          ],
        },
      ],
    },
  }))
}

const fetchMessage = 'Call the server through a module in src/api/ (lib/api.ts applies the request rules).'

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'coverage'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  jsxA11y.flatConfigs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { ecmaVersion: 2023, globals: globals.browser },
    rules: {
      // A scrolling region is focusable so keyboard users can scroll it (axe: scrollable-region-focusable).
      'jsx-a11y/no-noninteractive-tabindex': ['error', { roles: ['tabpanel', 'region'] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-globals': ['error', { name: 'fetch', message: fetchMessage }],
      'no-restricted-properties': [
        'error',
        { object: 'window', property: 'fetch', message: fetchMessage },
        { object: 'globalThis', property: 'fetch', message: fetchMessage },
        { object: 'self', property: 'fetch', message: fetchMessage },
      ],
    },
  },
  ...features.flatMap(featureBoundary),
  {
    // The one place that talks HTTP, and tests that stand in for the server.
    files: ['src/lib/api.ts', 'src/**/*.test.{ts,tsx}', 'src/test/**'],
    rules: { 'no-restricted-globals': 'off', 'no-restricted-properties': 'off' },
  },
  {
    // Spec 000 §2 (Footer): "All links are placeholders (#)" — the contract, kept on purpose.
    files: ['src/components/footer.tsx'],
    rules: { 'jsx-a11y/anchor-is-valid': ['error', { aspects: ['noHref', 'preferButton'] }] },
  },
  {
    files: ['vite.config.ts', 'eslint.config.js'],
    languageOptions: { globals: globals.node },
  },
)
