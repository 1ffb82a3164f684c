import { useEffect, useState } from 'react'
import { Award, Clock, ExternalLink, Glasses, Layers, ShieldCheck } from 'lucide-react'
import { showcasePrograms, showcaseTiles, type ShowcaseProgram } from '@/content/home'
import { RevealSection } from '@/components/reveal'
import { Badge } from '@/components/ui/badge'
import { buttonVariants } from '@/components/ui/button'
import { cn } from '@/lib/utils'
import { programIdFromLocation, resolveProgram } from '../lib/showcase'
import { FallbackVideo } from './fallback-video'

const tileIcons = { vr: Glasses, ar: Layers, safety: ShieldCheck } as const

function programFromAddress(): ShowcaseProgram {
  return resolveProgram(programIdFromLocation(window.location.search, window.location.hash))
}

/** The text and link shown where a programme's video cannot play (spec 000 §8). */
function VideoUnsupported({ program }: { program: ShowcaseProgram }) {
  return (
    <p>
      Your browser does not support video playback.{' '}
      <a href={program.videoUrl} target="_blank" rel="noopener noreferrer" className="font-semibold text-amber-400 underline underline-offset-4">
        Watch video in new tab
      </a>
    </p>
  )
}

/** The selected programme's player; remounted per programme so each starts fresh. */
function ProgramVideo({ program }: { program: ShowcaseProgram }) {
  const [unplayable, setUnplayable] = useState(false)
  if (unplayable) {
    return (
      <div
        className="flex aspect-video w-full items-center justify-center rounded-xl border border-white/10 bg-slate-900 p-6 text-center text-slate-200"
        data-testid="showcase-video-unsupported"
      >
        <VideoUnsupported program={program} />
      </div>
    )
  }
  return (
    <FallbackVideo
      media={program.video}
      data-testid="showcase-video"
      className="aspect-video w-full rounded-xl border border-white/10 bg-slate-900 object-cover"
      controls
      loop
      playsInline
      preload="none"
      aria-label={`${program.title} preview video`}
      onAllFailed={() => setUnplayable(true)}
      onError={() => setUnplayable(true)}
    >
      <VideoUnsupported program={program} />
    </FallbackVideo>
  )
}

/**
 * The video showcase (#video-showcase, spec 000 §2): five programmes on the
 * left; the chosen one's video and details on the right. ?program=<id> or
 * #video-showcase-<id> chooses one from the address.
 */
export function VideoShowcase() {
  const [selectedId, setSelectedId] = useState(() => programFromAddress().id)
  const program = resolveProgram(selectedId)

  useEffect(() => {
    const onHashChange = () => {
      if (programIdFromLocation(window.location.search, window.location.hash)) setSelectedId(programFromAddress().id)
    }
    window.addEventListener('hashchange', onHashChange)
    return () => window.removeEventListener('hashchange', onHashChange)
  }, [])

  return (
    <RevealSection id="video-showcase" aria-labelledby="video-showcase-heading" className="home-section scroll-mt-20 bg-slate-900/40 py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="max-w-3xl">
          <p className="text-sm font-semibold uppercase tracking-widest text-amber-400">Video Showcase</p>
          <h2 id="video-showcase-heading" className="mt-3 text-3xl font-bold tracking-tight text-white sm:text-4xl">
            See XR Training in Action
          </h2>
          <p className="mt-4 text-lg text-slate-300">
            Five certified programmes across VR, AR and mixed reality. Choose one to watch it.
          </p>
        </div>

        <div className="mt-10 grid gap-8 lg:grid-cols-5">
          <ul className="grid content-start gap-3 lg:col-span-2" aria-label="Training programmes">
            {showcasePrograms.map((p) => {
              const selected = p.id === program.id
              return (
                <li key={p.id}>
                  <button
                    type="button"
                    id={`video-showcase-${p.id}`}
                    aria-pressed={selected}
                    onClick={() => setSelectedId(p.id)}
                    className={cn(
                      'flex w-full scroll-mt-24 items-center gap-4 rounded-xl border p-3 text-left transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400',
                      selected ? 'border-amber-400 bg-amber-400/10' : 'border-white/10 bg-slate-900/70 hover:border-white/30',
                    )}
                  >
                    <img
                      src={p.thumbnail}
                      alt=""
                      width={112}
                      height={63}
                      loading="lazy"
                      decoding="async"
                      className="h-[63px] w-28 shrink-0 rounded-md object-cover"
                    />
                    <span className="min-w-0">
                      <span className="block font-semibold text-white">{p.title}</span>
                      <span className="mt-1 flex items-center gap-2 text-xs text-slate-300">
                        <Badge variant="outline">{p.category}</Badge>
                        <span className="inline-flex items-center gap-1">
                          <Clock className="h-3 w-3" aria-hidden="true" />
                          <span className="sr-only">Duration </span>
                          {p.duration}
                        </span>
                      </span>
                    </span>
                  </button>
                </li>
              )
            })}
          </ul>

          <article className="lg:col-span-3" aria-labelledby="showcase-program-title" data-testid="showcase-detail" data-program={program.id}>
            <ProgramVideo key={program.id} program={program} />
            <div className="mt-5 flex flex-wrap items-center gap-3">
              <Badge data-testid="showcase-category">{program.category}</Badge>
              <span className="inline-flex items-center gap-1 text-sm text-slate-300">
                <Clock className="h-4 w-4" aria-hidden="true" />
                <span data-testid="showcase-duration">{program.duration}</span>
              </span>
            </div>
            <h3 id="showcase-program-title" className="mt-3 text-2xl font-bold text-white">
              {program.title}
            </h3>
            <p className="mt-2 text-slate-300">{program.description}</p>
            <ul className="mt-4 flex flex-wrap gap-2" aria-label="Features">
              {program.features.map((feature) => (
                <li key={feature} className="rounded-full border border-sky-400/30 bg-sky-400/10 px-3 py-1 text-sm text-sky-100">
                  {feature}
                </li>
              ))}
            </ul>
            <p className="mt-4 flex items-center gap-2 text-sm text-slate-200">
              <Award className="h-4 w-4 text-amber-400" aria-hidden="true" />
              Certification: <span className="font-semibold text-white" data-testid="showcase-certification">{program.certification}</span>
            </p>
            <a
              href="/xr-training"
              target="_blank"
              rel="noopener noreferrer"
              className={cn(buttonVariants({ size: 'lg' }), 'mt-6')}
            >
              Start Training
              <ExternalLink aria-hidden="true" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          </article>
        </div>

        <ul className="mt-14 grid gap-6 md:grid-cols-3" aria-label="Technology">
          {showcaseTiles.map((tile) => {
            const Icon = tileIcons[tile.id]
            return (
              <li key={tile.id} className="rounded-xl border border-white/10 bg-slate-900/70 p-6">
                <Icon className="h-7 w-7 text-amber-400" aria-hidden="true" />
                <h3 className="mt-3 text-lg font-semibold text-white">{tile.title}</h3>
                <p className="mt-1 text-sm text-slate-300">{tile.text}</p>
              </li>
            )
          })}
        </ul>
      </div>
    </RevealSection>
  )
}
