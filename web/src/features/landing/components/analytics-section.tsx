import { Link } from 'wouter'
import { Activity, BrainCircuit, PlayCircle, ShieldCheck, Target } from 'lucide-react'
import { DemoRequestButton } from '@/components/demo-request'
import { buttonVariants } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { analyticsFeatures } from '@/content/landing'
import { cn } from '@/lib/utils'

const icons = [Activity, ShieldCheck, Target, BrainCircuit] as const

/** Analytics (#analytics): four feature cards and a call to action. */
export function AnalyticsSection() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
      <h2 id="analytics-title" className="text-3xl font-bold text-white sm:text-4xl">
        Advanced Training Analytics
      </h2>
      <p className="mt-3 max-w-2xl text-slate-300">Know exactly where each apprentice stands, and what to train next.</p>
      <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
        {analyticsFeatures.map((f, i) => {
          const Icon = icons[i]
          return (
            <li key={f.title}>
              <Card className="h-full p-5">
                <Icon className="h-7 w-7 text-amber-400" aria-hidden="true" />
                <h3 className="mt-3 font-semibold text-white">{f.title}</h3>
                <p className="mt-2 text-sm text-slate-300">{f.description}</p>
              </Card>
            </li>
          )
        })}
      </ul>
      <div className="mt-10 flex flex-col items-center gap-4 rounded-xl border border-amber-500/30 bg-amber-500/10 p-8 text-center">
        <p className="text-xl font-semibold text-white">See your own programme’s data in the analytics dashboard.</p>
        <div className="flex flex-wrap justify-center gap-3">
          <DemoRequestButton interest="analytics" title="Request Analytics Demo" size="lg">
            Request Analytics Demo
          </DemoRequestButton>
          <Link href="/analytics" className={cn(buttonVariants({ variant: 'outline', size: 'lg' }))}>
            <PlayCircle aria-hidden="true" />
            Watch Analytics Overview
          </Link>
        </div>
      </div>
    </div>
  )
}
