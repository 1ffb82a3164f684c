import { useState } from 'react'
import { Link } from 'wouter'
import { Award, BookOpen, Clock, Layers } from 'lucide-react'
import { CatalogLoadError } from '@/components/catalog-load-error'
import { DemoRequestButton } from '@/components/demo-request'
import { ModuleCard, formatMinutes } from '@/components/module-card'
import { buttonVariants } from '@/components/ui/button'
import { industries } from '@/content/navigation'
import type { PageProps } from '@/lib/page'
import { cn } from '@/lib/utils'
import { useTrades, useTrainingModules } from '@/api/catalog'
import { difficultyFilters, industryModules, prerequisiteTitles, summarize, tradeIdOf, type DifficultyFilter } from './lib/industry'

const filterLabels: Record<DifficultyFilter, string> = { all: 'All levels', beginner: 'Beginner', intermediate: 'Intermediate', advanced: 'Advanced' }

/**
 * An industry's training page, /industries/{industry}: the trade's catalog
 * modules with difficulty and duration, its certifications and a Start
 * link into the XR Training Center for each module. The router only sends
 * the seven industries of the navigation here; anything else is a 404.
 */
export default function IndustryPage({ params }: PageProps) {
  const industry = industries.find((i) => i.slug === params.industry) ?? { slug: params.industry, label: params.industry }
  const tradeId = tradeIdOf(industry.slug)
  const modules = useTrainingModules()
  const trades = useTrades()
  const [filter, setFilter] = useState<DifficultyFilter>('all')

  const trade = trades.data?.find((t) => t.id === tradeId)
  const all = modules.data ? industryModules(modules.data, tradeId) : []
  const shown = modules.data ? industryModules(modules.data, tradeId, filter) : []
  const summary = summarize(all)
  const failed = modules.isError || trades.isError

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-400">
        <ol className="flex flex-wrap gap-1.5">
          <li>
            <Link href="/" className="hover:text-white">
              Home
            </Link>
            <span aria-hidden="true"> /</span>
          </li>
          <li>Industries /</li>
          <li aria-current="page" className="text-slate-200">
            {industry.label}
          </li>
        </ol>
      </nav>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-white sm:text-5xl">{industry.label} Training</h1>
      <p className="mt-4 max-w-3xl text-lg text-slate-300">
        {trade?.description ?? `Immersive XR modules for ${industry.label.toLowerCase()} apprentices and journeymen.`}
      </p>

      {failed ? (
        <CatalogLoadError
          onRetry={() => {
            void modules.refetch()
            void trades.refetch()
          }}
        />
      ) : modules.isPending || trades.isPending ? (
        <p className="mt-10 text-slate-400" role="status">
          Loading the {industry.label} programme…
        </p>
      ) : (
        <>
          <dl className="mt-8 grid gap-4 sm:grid-cols-3">
            <div className="rounded-xl border border-white/10 bg-slate-900/70 p-4">
              <dt className="flex items-center gap-2 text-sm text-slate-300">
                <Layers className="h-4 w-4 text-amber-400" aria-hidden="true" />
                Modules
              </dt>
              <dd className="mt-1 text-2xl font-bold text-white" data-testid="industry-module-count">
                {summary.modules}
              </dd>
            </div>
            <div className="rounded-xl border border-white/10 bg-slate-900/70 p-4">
              <dt className="flex items-center gap-2 text-sm text-slate-300">
                <Clock className="h-4 w-4 text-amber-400" aria-hidden="true" />
                Total training time
              </dt>
              <dd className="mt-1 text-2xl font-bold text-white">{formatMinutes(summary.totalMinutes)}</dd>
            </div>
            <div className="rounded-xl border border-white/10 bg-slate-900/70 p-4">
              <dt className="flex items-center gap-2 text-sm text-slate-300">
                <BookOpen className="h-4 w-4 text-amber-400" aria-hidden="true" />
                Levels
              </dt>
              <dd className="mt-1 text-sm text-white">
                {summary.byDifficulty.beginner} beginner · {summary.byDifficulty.intermediate} intermediate · {summary.byDifficulty.advanced}{' '}
                advanced
              </dd>
            </div>
          </dl>

          <section aria-labelledby="certifications-title" className="mt-10">
            <h2 id="certifications-title" className="flex items-center gap-2 text-2xl font-bold text-white">
              <Award className="h-6 w-6 text-amber-400" aria-hidden="true" />
              Certifications this training prepares for
            </h2>
            {trade && trade.certifications.length > 0 ? (
              <ul className="mt-4 flex flex-wrap gap-2" data-testid="certifications">
                {trade.certifications.map((c) => (
                  <li key={c} className="rounded-lg border border-amber-500/30 bg-amber-500/10 px-3 py-2 text-sm text-amber-100">
                    {c}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-4 text-slate-400">No certifications are listed for this trade yet.</p>
            )}
          </section>

          <section aria-labelledby="modules-title" className="mt-12">
            <div className="flex flex-wrap items-end justify-between gap-4">
              <h2 id="modules-title" className="text-2xl font-bold text-white">
                Training modules
              </h2>
              <div role="group" aria-label="Filter by difficulty" className="flex flex-wrap gap-1 rounded-lg bg-slate-800/80 p-1">
                {difficultyFilters.map((f) => (
                  <button
                    key={f}
                    type="button"
                    aria-pressed={filter === f}
                    onClick={() => setFilter(f)}
                    className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-300 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 aria-pressed:bg-amber-500 aria-pressed:text-slate-950"
                  >
                    {filterLabels[f]}
                  </button>
                ))}
              </div>
            </div>
            {shown.length > 0 ? (
              <ul className="mt-6 grid gap-5 md:grid-cols-2 lg:grid-cols-3" data-testid="industry-modules">
                {shown.map((m) => (
                  <li key={m.id}>
                    <ModuleCard module={m} prerequisites={prerequisiteTitles(m, modules.data ?? [])} />
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-6 text-slate-400">
                {all.length === 0 ? `No ${industry.label} modules are in the catalog yet.` : 'No modules at this level.'}
              </p>
            )}
          </section>
        </>
      )}

      <section aria-labelledby="industry-cta" className="mt-16 rounded-xl border border-white/10 bg-slate-900/70 p-8 text-center">
        <h2 id="industry-cta" className="text-2xl font-bold text-white">
          Train your {industry.label.toLowerCase()} crew in XR
        </h2>
        <p className="mx-auto mt-2 max-w-2xl text-slate-300">Try a module now, or let us show your team the whole programme.</p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link href="/xr-training" className={cn(buttonVariants({ size: 'lg' }))}>
            Open the XR Training Center
          </Link>
          <DemoRequestButton interest={industry.slug} title={`Request a ${industry.label} Demo`} variant="outline" size="lg">
            Request a Team Demo
          </DemoRequestButton>
        </div>
      </section>
    </div>
  )
}
