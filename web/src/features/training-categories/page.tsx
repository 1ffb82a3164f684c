import { Link } from 'wouter'
import { Award } from 'lucide-react'
import { CatalogLoadError } from '@/components/catalog-load-error'
import { DemoRequestButton } from '@/components/demo-request'
import { ModuleCard } from '@/components/module-card'
import { buttonVariants } from '@/components/ui/button'
import { trainingCategories } from '@/content/navigation'
import type { PageProps } from '@/lib/page'
import { cn } from '@/lib/utils'
import { useTrades, useTrainingModules } from '@/api/catalog'
import { categoryDescriptions, groupByTrade } from './lib/category'

/**
 * A training category's page, /training/{category}: the catalog modules in
 * the category, grouped by trade with each trade's certifications, each
 * with difficulty, duration and a Start link. Unknown categories never get
 * here: the router shows the 404 page.
 */
export default function TrainingCategoryPage({ params }: PageProps) {
  const category = trainingCategories.find((c) => c.slug === params.category) ?? { slug: params.category, label: params.category }
  const modules = useTrainingModules()
  const trades = useTrades()
  const groups = modules.data && trades.data ? groupByTrade(modules.data, trades.data, category.slug) : []
  const total = groups.reduce((n, g) => n + g.modules.length, 0)
  const titleOf = (id: string) => modules.data?.find((m) => m.id === id)?.title

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
          <li>Training categories /</li>
          <li aria-current="page" className="text-slate-200">
            {category.label}
          </li>
        </ol>
      </nav>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-white sm:text-5xl">{category.label}</h1>
      <p className="mt-4 max-w-3xl text-lg text-slate-300">{categoryDescriptions[category.slug]}</p>

      <nav aria-label="Other training categories" className="mt-6">
        <ul className="flex flex-wrap gap-2">
          {trainingCategories.map((c) =>
            c.slug === category.slug ? (
              // This page: named, marked as current, but not a link to itself.
              <li key={c.slug}>
                <span aria-current="page" className="rounded-full border border-amber-500 bg-amber-500 px-3 py-1 text-sm text-slate-950">
                  {c.label}
                </span>
              </li>
            ) : (
              <li key={c.slug}>
                <Link
                  href={`/training/${c.slug}`}
                  className="rounded-full border border-white/20 px-3 py-1 text-sm text-slate-200 hover:border-amber-400 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
                >
                  {c.label}
                </Link>
              </li>
            ),
          )}
        </ul>
      </nav>

      {modules.isError || trades.isError ? (
        <CatalogLoadError
          onRetry={() => {
            void modules.refetch()
            void trades.refetch()
          }}
        />
      ) : modules.isPending || trades.isPending ? (
        <p className="mt-10 text-slate-400" role="status">
          Loading {category.label.toLowerCase()} modules…
        </p>
      ) : groups.length === 0 ? (
        <p className="mt-10 text-slate-400">No modules are in this category yet.</p>
      ) : (
        <>
          <p className="mt-8 text-slate-300" data-testid="category-summary">
            {total} {total === 1 ? 'module' : 'modules'} across {groups.length} {groups.length === 1 ? 'trade' : 'trades'}
          </p>
          {groups.map(({ trade, modules: list }) => (
            <section key={trade.id} aria-labelledby={`trade-${trade.id}`} className="mt-10" data-testid="trade-group">
              <h2 id={`trade-${trade.id}`} className="text-2xl font-bold text-white">
                {trade.name}
              </h2>
              {trade.certifications.length > 0 && (
                <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-amber-100">
                  <Award className="h-4 w-4 text-amber-400" aria-hidden="true" />
                  <span className="sr-only">Certifications:</span>
                  {trade.certifications.join(' · ')}
                </p>
              )}
              <ul className="mt-5 grid gap-5 md:grid-cols-2 lg:grid-cols-3">
                {list.map((m) => (
                  <li key={m.id}>
                    <ModuleCard
                      module={m}
                      currentCategory={category.slug}
                      prerequisites={m.prerequisites.map(titleOf).filter((t): t is string => !!t)}
                    />
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </>
      )}

      <section aria-labelledby="category-cta" className="mt-16 rounded-xl border border-white/10 bg-slate-900/70 p-8 text-center">
        <h2 id="category-cta" className="text-2xl font-bold text-white">
          Bring {category.label.toLowerCase()} training to your programme
        </h2>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link href="/xr-training" className={cn(buttonVariants({ size: 'lg' }))}>
            Open the XR Training Center
          </Link>
          <DemoRequestButton interest="vr-training" title={`Request a ${category.label} Demo`} variant="outline" size="lg">
            Request a Team Demo
          </DemoRequestButton>
        </div>
      </section>
    </div>
  )
}
