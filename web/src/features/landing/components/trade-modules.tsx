import { useState } from 'react'
import { Link } from 'wouter'
import { Building2, Car, Clock, Droplets, Flame, Layers, RadioTower, Sun, Thermometer, Truck, Zap } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button, buttonVariants } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { fallbackTrades, type FallbackTrade } from '@/content/landing'
import { cn } from '@/lib/utils'
import { useTrainingModules } from '@/api/catalog'
import { trainingHref } from './experiences'

/** How many server modules show before 'Show all'. */
export const MODULES_SHOWN_FIRST = 9

const icons: Record<FallbackTrade['icon'], typeof Zap> = {
  zap: Zap,
  droplets: Droplets,
  thermometer: Thermometer,
  flame: Flame,
  sun: Sun,
  car: Car,
  building: Building2,
  'radio-tower': RadioTower,
  truck: Truck,
}

function FallbackTradeCard({ trade }: { trade: FallbackTrade }) {
  const Icon = icons[trade.icon]
  return (
    <Card className="flex flex-col overflow-hidden" data-testid="fallback-trade">
      <div className={cn('relative h-28 bg-gradient-to-br', trade.color)}>
        <img src={trade.imageUrl} alt="" loading="lazy" className="h-full w-full object-cover opacity-40 mix-blend-overlay" />
        <span className="absolute left-4 top-4 flex h-11 w-11 items-center justify-center rounded-lg bg-slate-950/70">
          <Icon className="h-6 w-6 text-white" aria-hidden="true" />
        </span>
        <span className={cn('absolute right-3 top-3 rounded-full px-2.5 py-1 text-xs font-semibold backdrop-blur', trade.demandColor)}>
          {trade.demandLevel}
        </span>
      </div>
      <div className="flex flex-1 flex-col p-5">
        <h3 className="text-lg font-semibold text-white">{trade.title}</h3>
        <p className="mt-2 text-sm text-slate-300">{trade.description}</p>
        <dl className="mt-4 grid grid-cols-3 gap-2 text-center text-sm">
          <div className="rounded-md bg-white/5 p-2">
            <dt className="text-xs text-slate-400">Modules</dt>
            <dd className="font-semibold text-white">{trade.moduleCount}</dd>
          </div>
          <div className="rounded-md bg-white/5 p-2">
            <dt className="text-xs text-slate-400">Hours</dt>
            <dd className="font-semibold text-white">{trade.duration}</dd>
          </div>
          <div className="rounded-md bg-white/5 p-2">
            <dt className="text-xs text-slate-400">AI Risk</dt>
            <dd className="font-semibold text-white">{trade.aiRisk}</dd>
          </div>
        </dl>
        <ul className="mt-4 flex flex-wrap gap-1.5">
          {trade.features.map((f) => (
            <li key={f}>
              <Badge variant="outline">{f}</Badge>
            </li>
          ))}
        </ul>
        <Link
          href={trainingHref(trade.startModuleId)}
          className={cn(buttonVariants(), 'mt-5 w-full')}
          aria-label={`Start Training: ${trade.title}`}
        >
          Start Training
        </Link>
      </div>
    </Card>
  )
}

/**
 * Trade Training Modules (#training): the server's modules (id, title and
 * description only) when it has any, otherwise the nine fallback trades
 * (spec 000 §2, §3).
 */
export function TradeTrainingModules() {
  const modules = useTrainingModules()
  const [showAll, setShowAll] = useState(false)
  const serverList = modules.isSuccess && modules.data.length > 0 ? modules.data : null
  const shown = serverList && !showAll ? serverList.slice(0, MODULES_SHOWN_FIRST) : serverList

  return (
    <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
      <h2 id="training-title" className="text-3xl font-bold text-white sm:text-4xl">
        Trade Training Modules
      </h2>
      <p className="mt-3 max-w-2xl text-slate-300">
        Hands-on XR modules for the trades with the strongest demand and the lowest risk of automation.
      </p>

      {modules.isPending ? (
        <p className="mt-8 text-slate-400" role="status">
          Loading training modules…
        </p>
      ) : shown ? (
        <>
          <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-3" data-testid="server-modules">
            {shown.map((m) => (
              <li key={m.id}>
                <Card className="flex h-full flex-col p-5" data-testid="server-module">
                  <p className="flex items-center gap-1.5 font-mono text-xs text-sky-300">
                    <Layers className="h-3.5 w-3.5" aria-hidden="true" />
                    {m.id}
                  </p>
                  <h3 className="mt-2 text-lg font-semibold text-white">{m.title}</h3>
                  <p className="mt-2 flex-1 text-sm text-slate-300">{m.description}</p>
                  <Link href={trainingHref(m.id)} className={cn(buttonVariants(), 'mt-5 w-full')} aria-label={`Start Training: ${m.title}`}>
                    Start Training
                  </Link>
                </Card>
              </li>
            ))}
          </ul>
          {serverList!.length > MODULES_SHOWN_FIRST && (
            <Button variant="outline" className="mt-6" aria-expanded={showAll} onClick={() => setShowAll((v) => !v)}>
              {showAll ? 'Show fewer modules' : `Show all ${serverList!.length} modules`}
            </Button>
          )}
        </>
      ) : (
        <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-3" data-testid="fallback-trades">
          {fallbackTrades.map((t) => (
            <li key={t.id}>
              <FallbackTradeCard trade={t} />
            </li>
          ))}
        </ul>
      )}

      <div className="mt-10 flex justify-center">
        <Link href="/learning-hub" className={cn(buttonVariants({ variant: 'outline', size: 'lg' }))}>
          <Clock aria-hidden="true" />
          Explore All Training Modules
        </Link>
      </div>
    </div>
  )
}
