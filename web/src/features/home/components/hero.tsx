import { useEffect, useRef, useState } from 'react'
import { Link } from 'wouter'
import { ArrowRight, Play, ShieldCheck } from 'lucide-react'
import { heroHeading, heroStats, heroVideo, organisations } from '@/content/home'
import { buttonVariants } from '@/components/ui/button'
import { cn } from '@/lib/utils'
import { useReducedMotion } from '../lib/motion'
import { FallbackVideo } from './fallback-video'

/** Particles in each of the hero's two layers (spec 000 §9: 15 + 15). */
export const HERO_PARTICLES_PER_LAYER = 15

/** Deterministic scatter, so the backdrop looks the same on every visit and in tests. */
function scatter(i: number, a: number, b: number): number {
  return (i * a + b) % 100
}

/** The animated grid and the two particle layers behind the hero's text. */
function HeroBackdrop() {
  return (
    <div className="pointer-events-none absolute inset-0" aria-hidden="true">
      <div className="hero-grid absolute inset-0" data-testid="hero-grid" />
      <div className="absolute inset-0" data-testid="hero-particles-drift">
        {Array.from({ length: HERO_PARTICLES_PER_LAYER }, (_, i) => (
          <span
            key={i}
            className="hero-particle hero-particle-drift"
            style={{ left: `${scatter(i, 37, 5)}%`, top: `${scatter(i, 61, 13)}%`, animationDelay: `${(i % 5) * 1.1}s` }}
          />
        ))}
      </div>
      <div className="absolute inset-0" data-testid="hero-particles-rise">
        {Array.from({ length: HERO_PARTICLES_PER_LAYER }, (_, i) => (
          <span
            key={i}
            className="hero-particle hero-particle-rise"
            style={{ left: `${scatter(i, 53, 29)}%`, animationDelay: `${(i % 7) * 0.9}s`, animationDuration: `${7 + (i % 4)}s` }}
          />
        ))}
      </div>
    </div>
  )
}

/**
 * The home hero (spec 000 §2): the background loop with its fallback source
 * over the grid and particles, the heading, the four stat cards, the two calls
 * to action and the organisations strip.
 */
export function Hero() {
  const videoRef = useRef<HTMLVideoElement>(null)
  const [videoFailed, setVideoFailed] = useState(false)
  const reducedMotion = useReducedMotion()

  // With reduced motion the loop stays on its poster.
  useEffect(() => {
    const video = videoRef.current
    if (!video) return
    if (reducedMotion) video.pause()
    else video.play().catch(() => {
      // Autoplay can be refused (data saver, power saving); the poster stays.
    })
  }, [reducedMotion])

  return (
    <section aria-labelledby="hero-heading" className="relative isolate flex min-h-[calc(100svh-4rem)] items-center overflow-hidden bg-slate-950">
      {!videoFailed && (
        <FallbackVideo
          ref={videoRef}
          media={heroVideo}
          data-testid="hero-video"
          className="absolute inset-0 -z-10 h-full w-full object-cover opacity-60"
          autoPlay={!reducedMotion}
          loop
          playsInline
          preload="auto"
          aria-hidden="true"
          tabIndex={-1}
          onAllFailed={(sources) => {
            console.error(`Hero background video failed to load from every source (${sources.join(', ')}); hiding it.`)
            setVideoFailed(true)
          }}
        >
          Your browser does not support the video tag.
        </FallbackVideo>
      )}
      <div className="absolute inset-0 -z-10 bg-gradient-to-b from-slate-950/70 via-slate-950/50 to-slate-950" aria-hidden="true" />
      <HeroBackdrop />

      <div className="relative mx-auto w-full max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
        <div className="max-w-3xl">
          <p className="inline-flex items-center gap-2 rounded-full border border-amber-400/40 bg-amber-400/10 px-3 py-1 text-sm font-medium text-amber-200">
            <ShieldCheck className="h-4 w-4" aria-hidden="true" />
            VR · AR · Mixed Reality · Desktop
          </p>
          <h1 id="hero-heading" className="mt-5 text-4xl font-extrabold tracking-tight text-white sm:text-5xl lg:text-6xl">
            {heroHeading}
          </h1>
          <p className="mt-5 max-w-2xl text-lg text-slate-200">
            Apprentices practise live-voltage, high-heat and high-height work in lifelike simulations, with 4K visuals, haptic
            feedback, spatial audio and hand tracking, and earn industry-recognised certification along the way.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link href="/xr-training" className={cn(buttonVariants({ size: 'lg' }))} data-tour="hero-start">
              Start XR Training Now
              <ArrowRight aria-hidden="true" />
            </Link>
            <Link href="/live-demo" className={cn(buttonVariants({ size: 'lg', variant: 'outline' }))} data-tour="hero-live-demo">
              <Play aria-hidden="true" />
              Watch Live Demo
            </Link>
          </div>
        </div>

        <ul className="mt-12 grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label="Results">
          {heroStats.map((stat) => (
            <li
              key={stat.id}
              className="rounded-xl border border-white/10 bg-slate-900/80 p-4"
              data-tour={stat.id === 'safe' ? 'hero-safety' : undefined}
              data-testid="hero-stat"
            >
              <p className="text-3xl font-extrabold text-amber-400">{stat.value}</p>
              <p className="mt-1 text-sm text-slate-200">{stat.label}</p>
            </li>
          ))}
        </ul>

        <div className="mt-12">
          <p className="text-center text-xs font-semibold uppercase tracking-widest text-slate-300">
            Trusted by leading trade organizations
          </p>
          <div className="logo-strip relative mt-4 overflow-hidden" data-testid="logo-strip">
            <div className="logo-track flex w-max gap-12">
              <ul className="flex shrink-0 gap-12" aria-label="Trusted organizations">
                {organisations.map((name) => (
                  <li key={name} className="text-2xl font-black tracking-wider text-slate-300">
                    {name}
                  </li>
                ))}
              </ul>
              {/* A second copy makes the scroll seamless; assistive technology hears the list once. */}
              <ul className="flex shrink-0 gap-12" aria-hidden="true">
                {organisations.map((name) => (
                  <li key={name} className="text-2xl font-black tracking-wider text-slate-300">
                    {name}
                  </li>
                ))}
              </ul>
            </div>
          </div>
        </div>
      </div>
    </section>
  )
}
