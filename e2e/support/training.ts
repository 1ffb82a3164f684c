import { expect, type APIRequestContext } from '@playwright/test'

interface SceneStep {
  id: string
  target: string
  action: string
  minDurationMs: number
}

/** A training module of the catalog, as GET /api/training-modules lists it. */
export interface CatalogModule {
  id: string
  tradeId: string
  title: string
  learningObjectives: string[]
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Trains a module through the API as an honest desktop client does, so the
 * server verifies the session (internal/training/verify.go): every step of
 * the scene in order, each sent in its own update after at least the step's
 * minDurationMs (+300 ms) of real time, with a sessionTime that never runs
 * ahead of the time really passed since the server acknowledged the start.
 * Answers the ended session, which the caller can check for verified and
 * passed. Takes the sum of the scene's minimum durations in wall time, so
 * callers train several modules at once.
 */
export async function passModuleVerified(api: APIRequestContext, moduleId: string): Promise<{ id: string; verified: boolean; outcome: string }> {
  const content = await api.get(`/api/training-modules/${moduleId}/xr-content`)
  expect(content.status(), await content.text()).toBe(200)
  const { scene } = (await content.json()) as { scene: { steps: SceneStep[] } }

  const start = await api.post('/api/xr-sessions', { data: { moduleId, sessionType: 'desktop', startedAt: new Date().toISOString() } })
  expect(start.status(), await start.text()).toBe(201)
  // The server started its clock before it answered: measuring from here keeps sessionTime behind it.
  const startedAt = Date.now()
  const session = (await start.json()) as { id: string }

  for (const [seq, step] of scene.steps.entries()) {
    await sleep(step.minDurationMs + 300)
    const res = await api.patch(`/api/xr-sessions/${session.id}`, {
      data: {
        duration: Math.floor((Date.now() - startedAt) / 1000),
        interactionData: {
          interactions: [{ action: step.action, objectId: step.target, stepId: step.id, sessionTime: Date.now() - startedAt, seq }],
        },
      },
    })
    expect(res.status(), await res.text()).toBe(200)
  }
  const end = await api.patch(`/api/xr-sessions/${session.id}`, {
    data: { endedAt: new Date().toISOString(), completionStatus: 'completed', duration: Math.floor((Date.now() - startedAt) / 1000) },
  })
  expect(end.status(), await end.text()).toBe(200)
  const ended = (await end.json()) as { id: string; verified: boolean; verificationIssues: string[]; interactionData: { completionStatus: string } }
  expect(ended.verificationIssues, `the session of ${moduleId} should verify`).toEqual([])
  return { id: ended.id, verified: ended.verified, outcome: ended.interactionData.completionStatus }
}

/** The catalog's modules of one trade, in catalog order. */
export async function tradeModules(api: APIRequestContext, tradeId: string): Promise<CatalogModule[]> {
  const res = await api.get('/api/training-modules')
  expect(res.status()).toBe(200)
  return ((await res.json()) as CatalogModule[]).filter((m) => m.tradeId === tradeId)
}
