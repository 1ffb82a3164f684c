import { useEffect, useMemo, useRef, useState } from 'react'
import { Brain, Sparkles } from 'lucide-react'
import { focusedHeadingClass } from '@/components/heading'
import { PageShell } from '@/components/page-shell'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { useTrainingModules } from '@/api/catalog'
import {
  dueRefreshers,
  latestRecommendations,
  preferencesOf,
  useGenerateRecommendations,
  useLearningPreferences,
  useRecommendations,
  useRefreshers,
  useSaveLearningPreferences,
  useSaveSkillAssessment,
  useSkillAssessments,
} from '@/api/learning'
import { AssessmentForm } from './components/assessment-form'
import { PreferencesForm } from './components/preferences-form'
import { RecommendationsPanel } from './components/recommendations-panel'
import { RefreshersList } from './components/refreshers-list'
import { buildRecommendationRequest, initialAssessment, initialPreferences, type SkillAssessment } from './lib/forms'

type Tab = 'preferences' | 'assessment' | 'recommendations'

/**
 * Where focus goes once a save has changed the screen: the assessment tab's
 * heading, the recommendations tab's next action (Generate or Regenerate), or
 * the heading of paths just generated where the Generate button was.
 */
type FocusTarget = 'assessment' | 'recommendations' | 'paths'

function pathCount(n: number): string {
  return `${n} learning ${n === 1 ? 'path' : 'paths'}`
}

function messageOf(error: unknown): string | null {
  if (!error) return null
  const text = error instanceof Error ? error.message : String(error)
  // The client's errors read "400: {json}"; show the server's message.
  const json = text.replace(/^\d{3}: /, '')
  try {
    const parsed = JSON.parse(json) as { message?: string }
    if (parsed.message) return parsed.message
  } catch {
    // Not JSON: show it as it is.
  }
  return text
}

/** AI learning paths (spec 001 §2): preferences, then an assessment, then recommendations. */
export default function AiLearningPathsPage() {
  const [tab, setTab] = useState<Tab>('preferences')
  const [justAssessed, setJustAssessed] = useState<SkillAssessment | null>(null)
  const prefs = useLearningPreferences({ select: preferencesOf })
  const assessments = useSkillAssessments()
  const recommendations = useRecommendations({ select: latestRecommendations })
  const refreshers = useRefreshers({ select: dueRefreshers })
  const modules = useTrainingModules()
  const savePrefs = useSaveLearningPreferences()
  const saveAssessment = useSaveSkillAssessment()
  const generate = useGenerateRecommendations()

  // Each save hides or replaces the button that was pressed. Focus follows the learner to what comes
  // next, and a polite status says what was saved (a new key makes the same words heard again).
  const [announcement, setAnnouncement] = useState<{ id: number; text: string } | null>(null)
  const announce = (text: string) => setAnnouncement((a) => ({ id: (a?.id ?? 0) + 1, text }))
  const pendingFocus = useRef<{ target: FocusTarget; from: Element | null } | null>(null)
  const assessmentHeading = useRef<HTMLHeadingElement>(null)
  const recommendationsHeading = useRef<HTMLHeadingElement>(null)
  const recommendationsAction = useRef<HTMLButtonElement>(null)
  const pathsHeading = useRef<HTMLHeadingElement>(null)
  /** from: where focus was when the learner saved. */
  const focusAfterSave = (target: FocusTarget, from: Element | null) => {
    pendingFocus.current = { target, from }
  }
  // After every render: the target may appear a render after the save (the recommendations once generated).
  useEffect(() => {
    const pending = pendingFocus.current
    if (!pending) return
    const el =
      pending.target === 'assessment'
        ? assessmentHeading.current
        : pending.target === 'recommendations'
          ? (recommendationsAction.current ?? recommendationsHeading.current)
          : (pathsHeading.current ?? recommendationsAction.current)
    if (!el) return
    pendingFocus.current = null
    // Unless the learner has already moved on to something else on the page while it saved.
    const now = document.activeElement
    const lost = !now || now === document.body || !now.isConnected || now.closest('[role="tabpanel"][data-state="inactive"]') !== null
    if (lost || now === pending.from) el.focus()
  })

  const titles = useMemo(() => new Map((modules.data ?? []).map((m) => [m.id, m.title])), [modules.data])
  const latestAssessment = justAssessed ?? assessments.data?.assessments[0] ?? null

  const onGenerate = () => {
    const first = !recommendations.data
    const from = document.activeElement
    generate.mutate(buildRecommendationRequest(prefs.data ?? initialPreferences, latestAssessment), {
      onSuccess: (set) => {
        // The first set replaces the Generate button: focus goes to the paths' heading. Regenerate stays where it is.
        if (first) focusAfterSave('paths', from)
        announce(`${first ? 'Recommendations generated' : 'Recommendations updated'}: ${pathCount(set.recommendations.recommendedPaths.length)}.`)
      },
    })
  }

  return (
    <PageShell title="AI Learning Paths">
      <p className="mt-3 max-w-3xl text-slate-300">
        Tell us how you learn and where you stand. The recommender builds learning paths from the real module catalog, in prerequisite order, sized to your
        time.
      </p>
      <p role="status" className="sr-only" data-testid="ai-learning-status">
        {announcement ? <span key={announcement.id}>{announcement.text}</span> : null}
      </p>
      <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)} className="mt-8">
        <TabsList aria-label="AI learning paths steps">
          <TabsTrigger value="preferences">Learning Preferences</TabsTrigger>
          <TabsTrigger value="assessment">Skill Assessment</TabsTrigger>
          <TabsTrigger value="recommendations">AI Recommendations</TabsTrigger>
        </TabsList>

        {/* The forms stay mounted (hidden when inactive) so switching tabs keeps unsaved input. */}
        <TabsContent value="preferences" forceMount className="data-[state=inactive]:hidden">
          <Card>
            <CardHeader>
              <CardTitle as="h2">Learning Preferences</CardTitle>
              <CardDescription>How you like to learn and how much time you have.</CardDescription>
            </CardHeader>
            <CardContent>
              {prefs.isPending ? (
                <p role="status" className="text-slate-300">
                  Loading your preferences...
                </p>
              ) : (
                <PreferencesForm
                  initial={prefs.data ?? initialPreferences}
                  saving={savePrefs.isPending}
                  error={messageOf(savePrefs.error)}
                  onSave={(p) => {
                    const from = document.activeElement
                    savePrefs.mutate(p, {
                      onSuccess: () => {
                        focusAfterSave('assessment', from)
                        setTab('assessment')
                        announce('Learning preferences saved.')
                      },
                    })
                  }}
                />
              )}
            </CardContent>
          </Card>
        </TabsContent>

        <TabsContent value="assessment" forceMount className="data-[state=inactive]:hidden">
          <Card>
            <CardHeader>
              <CardTitle as="h2" ref={assessmentHeading} tabIndex={-1} className={focusedHeadingClass}>
                Skill Assessment
              </CardTitle>
              <CardDescription>Rate yourself honestly: the score sets the level your paths start at.</CardDescription>
            </CardHeader>
            <CardContent>
              {assessments.isPending ? (
                <p role="status" className="text-slate-300">
                  Loading your assessments...
                </p>
              ) : (
                <AssessmentForm
                  initial={assessments.data?.initial ?? initialAssessment}
                  saving={saveAssessment.isPending}
                  error={messageOf(saveAssessment.error)}
                  onSave={(a) => {
                    const from = document.activeElement
                    saveAssessment.mutate(a, {
                      onSuccess: (saved) => {
                        setJustAssessed(saved)
                        focusAfterSave('recommendations', from)
                        setTab('recommendations')
                        announce('Skill assessment saved.')
                      },
                    })
                  }}
                />
              )}
            </CardContent>
          </Card>
        </TabsContent>

        {/* Mounted too, so that the render that shows it after a save has its Generate button to focus. */}
        <TabsContent value="recommendations" forceMount className="space-y-6 data-[state=inactive]:hidden">
          <h2 ref={recommendationsHeading} tabIndex={-1} className="sr-only">
            AI Recommendations
          </h2>
          {recommendations.isPending ? (
            <p role="status" className="text-slate-300">
              Loading recommendations...
            </p>
          ) : recommendations.data ? (
            <RecommendationsPanel
              recommendations={recommendations.data}
              titles={titles}
              generating={generate.isPending}
              onGenerate={onGenerate}
              headingRef={pathsHeading}
              actionRef={recommendationsAction}
            />
          ) : (
            <Card>
              <CardContent className="flex flex-col items-center gap-4 p-10 text-center">
                <Brain className="h-12 w-12 text-amber-400" aria-hidden="true" />
                <p className="text-lg font-semibold text-white">No recommendations yet</p>
                <p className="max-w-xl text-sm text-slate-300">
                  Generate learning paths from your preferences and latest assessment
                  {latestAssessment ? ` (${latestAssessment.tradeCategory}, ${latestAssessment.overallScore}%)` : ' (electrical until you save an assessment)'}.
                </p>
                {/* Unavailable, not disabled, while it works: focus stays on it, and there if it fails. */}
                <Button ref={recommendationsAction} size="lg" onClick={onGenerate} unavailable={generate.isPending}>
                  <Sparkles aria-hidden="true" />
                  {generate.isPending ? 'Generating...' : 'Generate'}
                </Button>
              </CardContent>
            </Card>
          )}
          {generate.error ? (
            <p role="alert" className="text-sm text-red-400">
              {messageOf(generate.error)}
            </p>
          ) : null}
          <RefreshersList refreshers={refreshers.data ?? []} titles={titles} />
        </TabsContent>
      </Tabs>
    </PageShell>
  )
}
