import { useEffect, useRef, useState, type RefObject } from 'react'
import { Link } from 'wouter'
import { Check, Droplets, Flame, Info, Maximize, Minimize, Pause, Play, RotateCcw, Thermometer, Volume2, VolumeX, Zap } from 'lucide-react'
import {
  DEMO_STAGE_INTERVAL_MS,
  demoStages,
  firefoxNotice,
  tradeDemoItems,
  type DemoStageId,
  type TradeDemoItem,
} from '@/content/home'
import { RevealSection } from '@/components/reveal'
import { Button, buttonVariants } from '@/components/ui/button'
import { Progress } from '@/components/ui/progress'
import { cn } from '@/lib/utils'
import { useTrainingModules } from '@/api/catalog'
import { XRSessionLauncher } from '@/components/xr'
import { useNearViewport } from '../lib/use-near-viewport'
import { completionRate, entryModuleId, isFirefox, nextStage, resolveTrade, stageStatus } from '../lib/trade-demo'
import { FallbackVideo } from './fallback-video'

const tradeIcons: Record<TradeDemoItem['icon'], typeof Zap> = { zap: Zap, droplets: Droplets, thermometer: Thermometer, flame: Flame }

const controlClass =
  'inline-flex h-10 w-10 items-center justify-center rounded-full bg-slate-950/70 text-white hover:bg-slate-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 disabled:opacity-50'

function useFullscreen(element: RefObject<HTMLElement | null>) {
  const [active, setActive] = useState(false)
  useEffect(() => {
    const onChange = () => setActive(!!element.current && document.fullscreenElement === element.current)
    document.addEventListener('fullscreenchange', onChange)
    return () => document.removeEventListener('fullscreenchange', onChange)
  }, [element])
  const supported = typeof document !== 'undefined' && !!document.fullscreenEnabled
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {})
    else void element.current?.requestFullscreen().catch(() => {})
  }
  return { active, supported, toggle }
}

/**
 * The interactive trade skills demo (spec 000 §2, §4): four trades, a demo
 * panel with play/pause, restart, volume and fullscreen, the five stages
 * (any one reachable directly), the stage's features and the metrics.
 * Playing advances one stage every DEMO_STAGE_INTERVAL_MS and stops on the last.
 * With handsOn (the /demo page), the chosen trade's first module follows,
 * ready to train in right there, on the desktop or in VR or AR.
 */
export function TradeSkillsDemo({ handsOn = false }: { handsOn?: boolean }) {
  const [tradeId, setTradeId] = useState<TradeDemoItem['id']>(tradeDemoItems[0].id)
  const [stage, setStage] = useState<DemoStageId>('overview')
  const [playing, setPlaying] = useState(false)
  const [muted, setMuted] = useState(true)
  const [firefox] = useState(() => typeof navigator !== 'undefined' && isFirefox(navigator.userAgent))
  const panelRef = useRef<HTMLDivElement>(null)
  const videoRef = useRef<HTMLVideoElement>(null)
  const sectionRef = useRef<HTMLDivElement>(null)
  const fullscreen = useFullscreen(panelRef)
  const modules = useTrainingModules({ enabled: useNearViewport(sectionRef) })

  const trade = resolveTrade(tradeId)
  const current = demoStages.find((s) => s.id === stage) ?? demoStages[0]
  const rate = completionRate(stage)
  const moduleId = entryModuleId(modules.data, trade)

  useEffect(() => {
    if (!playing) return
    const timer = window.setTimeout(() => {
      const next = nextStage(stage)
      if (next) setStage(next)
      if (!next || !nextStage(next)) setPlaying(false)
    }, DEMO_STAGE_INTERVAL_MS)
    return () => window.clearTimeout(timer)
  }, [playing, stage])

  // The panel's loop follows the play state.
  useEffect(() => {
    const video = videoRef.current
    if (!video) return
    if (playing) video.play().catch(() => {})
    else video.pause()
  }, [playing, tradeId])

  useEffect(() => {
    if (videoRef.current) videoRef.current.muted = muted
  }, [muted, tradeId])

  const togglePlay = () => {
    if (!playing && !nextStage(stage)) setStage('overview')
    setPlaying((p) => !p)
  }
  const restart = () => {
    setPlaying(false)
    setStage('overview')
    if (videoRef.current) videoRef.current.currentTime = 0
  }
  const chooseTrade = (id: TradeDemoItem['id']) => {
    setTradeId(id)
    setPlaying(false)
    setStage('overview')
  }

  return (
    <RevealSection id="trade-skills-demo" aria-labelledby="trade-demo-heading" className="home-section scroll-mt-20 bg-slate-950 py-20">
      <div ref={sectionRef} className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="max-w-3xl">
          <p className="text-sm font-semibold uppercase tracking-widest text-amber-400">Interactive Demo</p>
          <h2 id="trade-demo-heading" className="mt-3 text-3xl font-bold tracking-tight text-white sm:text-4xl">
            Try a Trade Skills Demo
          </h2>
          <p className="mt-4 text-lg text-slate-300">Pick a trade and step through a training session, from overview to certification.</p>
        </div>

        {firefox && (
          <p role="status" className="mt-6 flex items-center gap-2 rounded-lg border border-sky-400/30 bg-sky-400/10 px-4 py-3 text-sm text-sky-100">
            <Info className="h-4 w-4 shrink-0" aria-hidden="true" />
            {firefoxNotice}
          </p>
        )}

        <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Trades">
          {tradeDemoItems.map((item) => {
            const Icon = tradeIcons[item.icon]
            const selected = item.id === trade.id
            return (
              <li key={item.id}>
                <button
                  type="button"
                  aria-pressed={selected}
                  onClick={() => chooseTrade(item.id)}
                  data-testid={`trade-${item.id}`}
                  className={cn(
                    'h-full w-full rounded-2xl border p-5 text-left transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400',
                    selected ? 'border-amber-400 bg-amber-400/10' : 'border-white/10 bg-slate-900/70 hover:border-white/30',
                  )}
                >
                  <Icon className="h-7 w-7 text-amber-400" aria-hidden="true" />
                  <span className="mt-3 block text-lg font-bold text-white">{item.name}</span>
                  <span className="mt-1 block text-sm text-slate-300">{item.description}</span>
                  <span className="mt-4 grid grid-cols-2 gap-x-3 gap-y-1 text-xs text-slate-300">
                    <span>
                      Difficulty: <span className="font-semibold text-white">{item.difficulty}</span>
                    </span>
                    <span>
                      Duration: <span className="font-semibold text-white">{item.duration}</span>
                    </span>
                    <span>
                      Modules: <span className="font-semibold text-white">{item.modules}</span>
                    </span>
                    <span>
                      Safety score: <span className="font-semibold text-white">{item.safetyScore}</span>
                    </span>
                  </span>
                </button>
              </li>
            )
          })}
        </ul>

        <div
          ref={panelRef}
          className="mt-8 grid gap-6 rounded-2xl border border-white/10 bg-slate-900 p-4 sm:p-6 lg:grid-cols-5"
          data-testid="demo-panel"
          data-stage={stage}
          data-playing={playing ? 'true' : 'false'}
          aria-label={`${trade.name} demo`}
          role="region"
        >
          <div className="lg:col-span-3">
            <div className="relative overflow-hidden rounded-xl bg-black">
              <FallbackVideo
                key={trade.id}
                ref={videoRef}
                media={trade.video}
                data-testid="demo-video"
                className="aspect-video w-full object-cover"
                loop
                playsInline
                preload="none"
                aria-label={`${trade.name} training footage`}
                onAllFailed={() => setPlaying(false)}
              />
              <div className="absolute inset-x-0 bottom-0 flex items-center justify-between gap-2 bg-gradient-to-t from-black/80 to-transparent p-3">
                <div className="flex gap-2">
                  <button type="button" className={controlClass} onClick={togglePlay} aria-label={playing ? 'Pause demo' : 'Play demo'}>
                    {playing ? <Pause className="h-5 w-5" aria-hidden="true" /> : <Play className="h-5 w-5" aria-hidden="true" />}
                  </button>
                  <button type="button" className={controlClass} onClick={restart} aria-label="Restart demo">
                    <RotateCcw className="h-5 w-5" aria-hidden="true" />
                  </button>
                  <button type="button" className={controlClass} onClick={() => setMuted((m) => !m)} aria-label={muted ? 'Unmute demo' : 'Mute demo'}>
                    {muted ? <VolumeX className="h-5 w-5" aria-hidden="true" /> : <Volume2 className="h-5 w-5" aria-hidden="true" />}
                  </button>
                </div>
                <button
                  type="button"
                  className={controlClass}
                  onClick={fullscreen.toggle}
                  disabled={!fullscreen.supported}
                  aria-label={fullscreen.active ? 'Exit fullscreen' : 'Enter fullscreen'}
                >
                  {fullscreen.active ? <Minimize className="h-5 w-5" aria-hidden="true" /> : <Maximize className="h-5 w-5" aria-hidden="true" />}
                </button>
              </div>
            </div>
            <p className="mt-3 min-h-6 text-sm font-medium text-amber-300" role="status" data-testid="demo-status">
              {playing ? 'Training in progress...' : ''}
            </p>

            <h3 className="mt-3 text-lg font-semibold text-white">{current.label}: current features</h3>
            <ul className="mt-2 grid gap-2 sm:grid-cols-3" data-testid="demo-features">
              {current.features.map((feature) => (
                <li key={feature} className="rounded-lg border border-white/10 bg-slate-950/60 px-3 py-2 text-sm text-slate-200">
                  {feature}
                </li>
              ))}
            </ul>
          </div>

          <div className="lg:col-span-2">
            <h3 className="text-lg font-semibold text-white">Training stages</h3>
            <ol className="mt-3 grid gap-2" aria-label="Training stages">
              {demoStages.map((s, i) => {
                const status = stageStatus(s.id, stage)
                return (
                  <li key={s.id}>
                    <button
                      type="button"
                      onClick={() => setStage(s.id)}
                      aria-current={status === 'current' ? 'step' : undefined}
                      data-status={status}
                      data-testid={`stage-${s.id}`}
                      className={cn(
                        'flex w-full items-center gap-3 rounded-lg border px-3 py-2 text-left text-sm transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400',
                        status === 'current' && 'border-amber-400 bg-amber-400/10 text-white',
                        status === 'done' && 'border-emerald-400/30 bg-emerald-400/5 text-slate-100',
                        status === 'upcoming' && 'border-white/10 text-slate-300 hover:border-white/30',
                      )}
                    >
                      <span
                        className={cn(
                          'flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-xs font-bold',
                          status === 'done' ? 'bg-emerald-500 text-slate-950' : status === 'current' ? 'bg-amber-500 text-slate-950' : 'bg-slate-700 text-white',
                        )}
                      >
                        {status === 'done' ? <Check className="h-4 w-4" role="img" aria-label="Completed" data-testid="stage-check" /> : i + 1}
                      </span>
                      {s.label}
                    </button>
                  </li>
                )
              })}
            </ol>

            <dl className="mt-6 grid grid-cols-2 gap-3">
              <div className="rounded-lg bg-slate-950/60 p-3">
                <dt className="text-xs text-slate-300">Completion Rate</dt>
                <dd className="mt-1 text-2xl font-bold text-white" data-testid="completion-rate">
                  {rate}%
                </dd>
              </div>
              <div className="rounded-lg bg-slate-950/60 p-3">
                <dt className="text-xs text-slate-300">Skill Level</dt>
                {/* 'Intermediate' at text-2xl is wider than this tile on a phone. */}
                <dd className="mt-1 text-lg font-bold break-words text-white sm:text-2xl" data-testid="skill-level">
                  {trade.difficulty}
                </dd>
              </div>
            </dl>
            <Progress className="mt-3" value={rate} aria-label="Completion rate" />

            <div className="mt-6 flex flex-col gap-3 sm:flex-row lg:flex-col xl:flex-row">
              <Link href={`/xr-training?module=${encodeURIComponent(moduleId)}`} className={cn(buttonVariants(), 'flex-1')} data-module={moduleId}>
                Start Full Training
              </Link>
              <Button asChild variant="outline" className="flex-1">
                <Link href="/live-demo">Request Live Demo</Link>
              </Button>
            </div>
          </div>
        </div>
        {handsOn && modules.data ? (
          <section aria-labelledby="hands-on-heading" className="mt-10">
            <h2 id="hands-on-heading" className="text-2xl font-semibold text-white">
              Hands-on: {trade.name}
            </h2>
            <p className="mt-2 text-slate-300">
              The trade&apos;s first module, here in your browser: start a session and work through its steps in the 3D scene. It is kept in your session history like
              any other.
            </p>
            <XRSessionLauncher key={moduleId} className="mt-4" moduleId={moduleId} title={modules.data.find((m) => m.id === moduleId)?.title} />
          </section>
        ) : null}
      </div>
    </RevealSection>
  )
}
