import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The project's own lint rules, run on code placed at a given path.
const eslint = new ESLint() // from the working directory, web/, where vitest runs

async function ruleIds(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return result.messages.map((m) => m.ruleId ?? m.message)
}

describe('lint rules', () => {
  it.each([
    ['a direct fetch in a feature', "export const load = () => fetch('/api/me')\n", 'src/features/analytics/lib/load.ts', 'no-restricted-globals'],
    ['window.fetch in shared code', "export const load = () => window.fetch('/api/me')\n", 'src/components/loader.ts', 'no-restricted-properties'],
    ['another feature’s internals', "import { x } from '@/features/home/lib/x'\nexport const y = x\n", 'src/features/analytics/page.tsx', 'no-restricted-imports'],
    ['a relative climb into another feature', "import { x } from '../../home/lib/x'\nexport const y = x\n", 'src/features/analytics/lib/y.ts', 'no-restricted-imports'],
    ['a relative import out of a feature’s page', "import { x } from '../home/page'\nexport const y = x\n", 'src/features/analytics/page.tsx', 'no-restricted-imports'],
  ])('refuses %s', async (_name, code, filePath, rule) => {
    expect(await ruleIds(code, filePath)).toContain(rule)
  })

  it.each([
    ['fetch in lib/api.ts', "export const load = () => fetch('/api/me')\n", 'src/lib/api.ts'],
    ['a feature’s own internals', "import { x } from '@/features/analytics/lib/metrics'\nexport const y = x\n", 'src/features/analytics/page.tsx'],
    ['another feature through its index', "import { x } from '@/features/live-demo'\nexport const y = x\n", 'src/features/unity-unreal/page.tsx'],
    ['a relative import inside the feature', "import { x } from '../lib/metrics'\nexport const y = x\n", 'src/features/analytics/components/card.tsx'],
  ])('allows %s', async (_name, code, filePath) => {
    expect(await ruleIds(code, filePath)).toEqual([])
  })
})
