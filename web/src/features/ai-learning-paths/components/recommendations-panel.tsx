import type { Ref } from 'react'
import { Clock, Lightbulb, Sparkles, Target, Wrench } from 'lucide-react'
import { focusedHeadingClass } from '@/components/heading'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import type { Recommendations } from '@/api/learning'
import { cn } from '@/lib/utils'

/** The AI Recommendations tab's results: reasoning, paths with real module titles, modifications and outcomes. */
export function RecommendationsPanel({
  recommendations,
  titles,
  generating,
  onGenerate,
  headingRef,
  actionRef,
}: {
  recommendations: Recommendations
  titles: Map<string, string>
  generating: boolean
  onGenerate: () => void
  /** The heading focus moves to when these paths replace the Generate button. */
  headingRef?: Ref<HTMLHeadingElement>
  /** The Regenerate button, where focus goes after a new assessment is saved. */
  actionRef?: Ref<HTMLButtonElement>
}) {
  const { reasoningExplanation, recommendedPaths, personalizedModifications, estimatedOutcomes } = recommendations
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 ref={headingRef} tabIndex={-1} className={cn('text-xl font-semibold text-white', focusedHeadingClass)}>
          Your recommended paths
        </h3>
        {/* Unavailable, not disabled, while it works: focus stays on it while the paths are replaced. */}
        <Button ref={actionRef} variant="outline" onClick={onGenerate} unavailable={generating}>
          <Sparkles aria-hidden="true" />
          {generating ? 'Generating...' : 'Regenerate'}
        </Button>
      </div>
      {reasoningExplanation ? (
        <Card>
          <CardHeader>
            <CardTitle as="h4" className="flex items-center gap-2 text-base">
              <Lightbulb className="h-5 w-5 text-amber-400" aria-hidden="true" />
              Why these paths
            </CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-sm leading-relaxed text-slate-200">{reasoningExplanation}</p>
          </CardContent>
        </Card>
      ) : null}
      {recommendedPaths.length === 0 ? (
        <p className="text-slate-300">No new path fits right now: you have completed every module at this level. Review your refreshers or assess another trade.</p>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2" aria-label="Recommended paths">
          {recommendedPaths.map((path) => (
            <li key={path.id}>
              <Card className="h-full">
                <CardHeader>
                  <div className="flex flex-wrap items-center gap-2">
                    <Badge className="capitalize">{path.difficulty}</Badge>
                    <span className="flex items-center gap-1 text-sm text-slate-300">
                      <Clock className="h-4 w-4" aria-hidden="true" />
                      {path.estimatedDuration} hours
                    </span>
                  </div>
                  <CardTitle as="h4">{path.name}</CardTitle>
                  <CardDescription data-detail="secondary">{path.description}</CardDescription>
                </CardHeader>
                <CardContent>
                  <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-300">
                    {path.moduleSequence.length} {path.moduleSequence.length === 1 ? 'module' : 'modules'}, in order
                  </p>
                  <ol className="space-y-1.5">
                    {path.moduleSequence.map((id, i) => (
                      <li key={id} className="flex items-start gap-2 text-sm">
                        <span className="flex h-5 w-5 shrink-0 items-center justify-center rounded-full bg-slate-800 text-xs font-semibold text-white" aria-hidden="true">
                          {i + 1}
                        </span>
                        <span className="text-slate-100">{titles.get(id) ?? id}</span>
                        <span className="font-mono text-xs text-slate-400" data-detail="advanced">
                          {id}
                        </span>
                        <span className="sr-only">(step {i + 1})</span>
                      </li>
                    ))}
                  </ol>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <div className="grid gap-4 lg:grid-cols-2">
        <TextList title="Personalized for you" icon={<Wrench className="h-5 w-5 text-amber-400" aria-hidden="true" />} items={personalizedModifications} />
        <TextList title="What to expect" icon={<Target className="h-5 w-5 text-amber-400" aria-hidden="true" />} items={estimatedOutcomes} />
      </div>
    </div>
  )
}

function TextList({ title, icon, items }: { title: string; icon: React.ReactNode; items: string[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h4" className="flex items-center gap-2 text-base">
          {icon}
          {title}
        </CardTitle>
      </CardHeader>
      <CardContent>
        {items.length ? (
          <ul className="list-disc space-y-1.5 pl-5 text-sm text-slate-200">
            {items.map((t) => (
              <li key={t}>{t}</li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-300">Nothing to add.</p>
        )}
      </CardContent>
    </Card>
  )
}
