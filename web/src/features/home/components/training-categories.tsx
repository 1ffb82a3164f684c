import { Link } from 'wouter'
import { ArrowRight, GraduationCap, HardHat, Search, ShieldCheck, Users, Wrench } from 'lucide-react'
import { trainingCategories } from '@/content/navigation'
import { categoryDescriptions } from '@/content/home'
import { RevealSection } from '@/components/reveal'
import { buttonVariants } from '@/components/ui/button'
import { cn } from '@/lib/utils'

const icons: Record<string, typeof Wrench> = {
  technical: Wrench,
  onboarding: GraduationCap,
  safety: ShieldCheck,
  teamwork: Users,
  troubleshooting: Search,
  'hazard-recognition': HardHat,
}

/** The six training categories (spec 000 §2); 'Learn More' opens /training/{category}. */
export function TrainingCategories() {
  return (
    <RevealSection aria-labelledby="categories-heading" className="home-section bg-slate-900/40 py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="max-w-3xl">
          <p className="text-sm font-semibold uppercase tracking-widest text-amber-400">Training Categories</p>
          <h2 id="categories-heading" className="mt-3 text-3xl font-bold tracking-tight text-white sm:text-4xl">
            Training for Every Stage of a Career
          </h2>
        </div>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {trainingCategories.map((category) => {
            const Icon = icons[category.slug] ?? Wrench
            const href = `/training/${category.slug}`
            return (
              <li key={category.slug} className="flex flex-col rounded-2xl border border-white/10 bg-slate-900/70 p-6" data-href={href}>
                <Icon className="h-8 w-8 text-amber-400" aria-hidden="true" />
                <h3 className="mt-4 text-xl font-bold text-white">{category.label}</h3>
                <p className="mt-2 flex-1 text-sm text-slate-300">{categoryDescriptions[category.slug]}</p>
                <Link href={href} className={cn(buttonVariants({ variant: 'secondary' }), 'mt-6 self-start')}>
                  Learn More
                  <span className="sr-only"> about {category.label}</span>
                  <ArrowRight aria-hidden="true" />
                </Link>
              </li>
            )
          })}
        </ul>
      </div>
    </RevealSection>
  )
}
