import { useId } from 'react'
import { Link } from 'wouter'
import { Clock, Gauge, Play, ShieldAlert, Target } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { buttonVariants } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { trainingCategories } from '@/content/navigation'
import { cn } from '@/lib/utils'

/** What a catalog module card shows. */
export interface ModuleCardData {
  id: string
  title: string
  description: string
  difficulty: string
  estimatedDuration: number // minutes
  learningObjectives: readonly string[]
  safetyPoints: readonly string[]
  categories: readonly string[]
}

/** The XR Training Center with a module chosen. */
export function xrTrainingHref(moduleId: string): string {
  return `/xr-training?module=${encodeURIComponent(moduleId)}`
}

/** "45 min", "1 h 30 min". */
export function formatMinutes(minutes: number): string {
  if (minutes < 60) return `${minutes} min`
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  return m ? `${h} h ${m} min` : `${h} h`
}

const difficultyTone: Record<string, string> = {
  beginner: 'bg-emerald-500/20 text-emerald-200',
  intermediate: 'bg-amber-500/20 text-amber-200',
  advanced: 'bg-red-500/20 text-red-200',
}

const categoryLabels = Object.fromEntries(trainingCategories.map((c) => [c.slug, c.label]))

const chipClass = 'rounded-full border border-white/20 px-2 py-0.5 text-xs text-slate-200'

/**
 * A catalog module: difficulty, duration, objectives, safety points, the
 * modules to take first, its training categories and a Start link into
 * the XR Training Center.
 *
 * Its category chips link to the category pages, except on a category's
 * own page (currentCategory): there the chip of that category is left out,
 * as every card on the page has it, and the others are plain text, as the
 * page's category strip links each category once; Start is the card's one
 * stop for Tab.
 */
export function ModuleCard({
  module,
  prerequisites = [],
  headingLevel: Heading = 'h3',
  currentCategory,
}: {
  module: ModuleCardData
  /** Titles of the modules to take first. */
  prerequisites?: readonly string[]
  headingLevel?: 'h2' | 'h3' | 'h4'
  /** The slug of the category page the card is on. */
  currentCategory?: string
}) {
  const difficulty = module.difficulty.charAt(0).toUpperCase() + module.difficulty.slice(1)
  const id = useId()
  const categories = currentCategory ? module.categories.filter((c) => c !== currentCategory) : module.categories
  return (
    <Card className="flex h-full flex-col p-5" data-testid="module-card" data-module-id={module.id}>
      <div className="flex flex-wrap items-center gap-2">
        <Badge className={cn('gap-1 py-1', difficultyTone[module.difficulty] ?? 'bg-slate-700 text-slate-100')}>
          <Gauge className="h-3.5 w-3.5" aria-hidden="true" />
          <span className="sr-only">Difficulty: </span>
          {difficulty}
        </Badge>
        <Badge variant="outline" className="gap-1 py-1">
          <Clock className="h-3.5 w-3.5" aria-hidden="true" />
          <span className="sr-only">Duration: </span>
          {formatMinutes(module.estimatedDuration)}
        </Badge>
      </div>
      <Heading className="mt-3 text-lg font-semibold leading-snug text-white">{module.title}</Heading>
      <p className="mt-2 text-sm text-slate-300">{module.description}</p>

      {module.learningObjectives.length > 0 && (
        <div className="mt-4">
          <p className="flex items-center gap-1.5 text-xs font-semibold uppercase tracking-wide text-slate-400">
            <Target className="h-3.5 w-3.5" aria-hidden="true" />
            You will be able to
          </p>
          <ul className="mt-1.5 list-disc space-y-1 pl-5 text-sm text-slate-200">
            {module.learningObjectives.map((o) => (
              <li key={o}>{o}</li>
            ))}
          </ul>
        </div>
      )}
      {module.safetyPoints.length > 0 && (
        <div className="mt-4">
          <p className="flex items-center gap-1.5 text-xs font-semibold uppercase tracking-wide text-slate-400">
            <ShieldAlert className="h-3.5 w-3.5" aria-hidden="true" />
            Safety points
          </p>
          <ul className="mt-1.5 list-disc space-y-1 pl-5 text-sm text-slate-200">
            {module.safetyPoints.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      {prerequisites.length > 0 && (
        <p className="mt-4 text-sm text-slate-300">
          <span className="font-semibold text-slate-200">Take first:</span> {prerequisites.join(', ')}
        </p>
      )}

      <div className="mt-auto pt-5">
        {categories.length > 0 &&
          (currentCategory ? (
            <div className="mb-4 flex flex-wrap items-center gap-1.5">
              <span id={`${id}-also-in`} className="text-xs text-slate-400">
                Also in
              </span>
              <ul className="flex flex-wrap gap-1.5" aria-labelledby={`${id}-also-in`}>
                {categories.map((c) => (
                  <li key={c} className={chipClass}>
                    {categoryLabels[c] ?? c}
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <ul className="mb-4 flex flex-wrap gap-1.5" aria-label="Training categories">
              {categories.map((c) => (
                <li key={c}>
                  <Link
                    href={`/training/${c}`}
                    className={cn(chipClass, 'hover:border-amber-400 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400')}
                  >
                    {categoryLabels[c] ?? c}
                  </Link>
                </li>
              ))}
            </ul>
          ))}
        <Link href={xrTrainingHref(module.id)} className={cn(buttonVariants(), 'w-full')} aria-label={`Start ${module.title}`}>
          <Play aria-hidden="true" />
          Start
        </Link>
      </div>
    </Card>
  )
}
