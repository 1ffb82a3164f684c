import type { MouseEvent } from 'react'
import { Link, useLocation } from 'wouter'
import { ArrowRight, Boxes, Check, LayoutDashboard, PenTool, WandSparkles } from 'lucide-react'
import { platformOfferings, type PlatformOffering } from '@/content/home'
import { RevealSection } from '@/components/reveal'
import { buttonVariants } from '@/components/ui/button'
import { scrollToId } from '@/lib/scroll'
import { cn } from '@/lib/utils'

const icons: Record<PlatformOffering['id'], typeof Boxes> = {
  'custom-content': WandSparkles,
  'ready-made': Boxes,
  portal: LayoutDashboard,
  flow: PenTool,
}

/** A link to another screen; one that names an anchor scrolls to it once that screen has rendered it. */
function OfferingLink({ offering }: { offering: PlatformOffering }) {
  const [, navigate] = useLocation()
  const [, anchor] = offering.action.href.split('#')
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!anchor || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
    event.preventDefault()
    navigate(offering.action.href)
    scrollToId(anchor)
  }
  return (
    <Link href={offering.action.href} onClick={onClick} className={cn(buttonVariants({ variant: 'outline' }), 'mt-6 w-full')}>
      {offering.action.label}
      <ArrowRight aria-hidden="true" />
    </Link>
  )
}

/**
 * The four offerings (spec 000 §1–§2). Each card is the target of its anchor
 * (#custom-content, #ready-made, #portal, #flow); its button goes to the
 * screen that does the thing.
 */
export function PlatformFeatures() {
  return (
    <RevealSection aria-labelledby="platform-heading" className="home-section bg-slate-950 py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="max-w-3xl">
          <p className="text-sm font-semibold uppercase tracking-widest text-amber-400">Platform</p>
          <h2 id="platform-heading" className="mt-3 text-3xl font-bold tracking-tight text-white sm:text-4xl">
            Everything You Need to Train in XR
          </h2>
          <p className="mt-4 text-lg text-slate-300">
            Build your own scenarios, deploy ours, and manage every learner from one place.
          </p>
        </div>
        <ul className="mt-10 grid gap-6 md:grid-cols-2 xl:grid-cols-4">
          {platformOfferings.map((offering) => {
            const Icon = icons[offering.id]
            return (
              <li
                key={offering.id}
                id={offering.id}
                className="flex scroll-mt-24 flex-col rounded-2xl border border-white/10 bg-slate-900/70 p-6 target:border-amber-400"
                data-testid="platform-offering"
              >
                <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-amber-500/15 text-amber-400">
                  <Icon className="h-6 w-6" aria-hidden="true" />
                </span>
                <h3 className="mt-4 text-xl font-bold text-white">{offering.title}</h3>
                <p className="mt-2 text-sm text-slate-300">{offering.description}</p>
                <ul className="mt-4 flex-1 space-y-2">
                  {offering.points.map((point) => (
                    <li key={point} className="flex gap-2 text-sm text-slate-200">
                      <Check className="mt-0.5 h-4 w-4 shrink-0 text-emerald-400" aria-hidden="true" />
                      {point}
                    </li>
                  ))}
                </ul>
                <OfferingLink offering={offering} />
              </li>
            )
          })}
        </ul>
      </div>
    </RevealSection>
  )
}
