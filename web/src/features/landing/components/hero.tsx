import { useState } from 'react'
import { Link } from 'wouter'
import { Headphones, Hand, Play, ShieldCheck, Sparkles, Volume2 } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { buttonVariants } from '@/components/ui/button'
import { heroChips } from '@/content/landing'
import { scrollToId } from '@/lib/scroll'
import { cn } from '@/lib/utils'

const chipIcons = [Sparkles, Hand, Volume2, ShieldCheck] as const

/** The loop behind the hero: WebM first, MP4 as the second source. */
export const heroVideoSources = [
  { src: '/media/hero.webm', type: 'video/webm' },
  { src: '/media/hero.mp4', type: 'video/mp4' },
] as const

/**
 * The background loop. When the last source fails too, the video is hidden,
 * the failure logged, and the hero stands on its gradient (spec 000 §8).
 */
function HeroVideo() {
  const [failed, setFailed] = useState(false)
  if (failed) return null
  return (
    <video
      className="absolute inset-0 h-full w-full object-cover opacity-40"
      autoPlay
      muted
      loop
      playsInline
      preload="metadata"
      poster="/media/hero-poster.webp"
      aria-hidden="true"
      tabIndex={-1}
      data-testid="landing-hero-video"
    >
      {heroVideoSources.map((source, i) => (
        <source
          key={source.src}
          src={source.src}
          type={source.type}
          onError={
            i === heroVideoSources.length - 1
              ? () => {
                  console.error(`Landing hero video failed to load from ${heroVideoSources.map((s) => s.src).join(' and ')}; hiding it.`)
                  setFailed(true)
                }
              : undefined
          }
        />
      ))}
      Your browser does not support the video tag.
    </video>
  )
}

/** The landing hero (spec 000 §2, Hero (landing)). */
export function LandingHero() {
  return (
    <section aria-labelledby="landing-hero-title" className="relative isolate overflow-hidden border-b border-white/10 bg-slate-950">
      <HeroVideo />
      <div className="absolute inset-0 -z-0 bg-gradient-to-br from-slate-950/90 via-slate-950/70 to-blue-950/80" aria-hidden="true" />
      <div className="relative mx-auto flex min-h-[78vh] max-w-7xl flex-col justify-center px-4 py-20 sm:px-6 lg:px-8">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="secondary" className="gap-1 px-3 py-1 text-sm">
            <Headphones className="h-4 w-4" aria-hidden="true" />
            4K VR Experience
          </Badge>
          <Badge variant="live" className="gap-1.5 px-3 py-1 text-sm">
            <span className="h-2 w-2 animate-pulse rounded-full bg-white" aria-hidden="true" />
            LIVE
          </Badge>
        </div>
        <h1 id="landing-hero-title" className="mt-6 max-w-4xl text-4xl font-extrabold tracking-tight text-white sm:text-5xl lg:text-6xl">
          Unlock Your Potential with Immersive XR Training
        </h1>
        <p className="mt-5 max-w-2xl text-lg text-slate-200">
          Practise dangerous, expensive and rare tasks of the skilled trades in lifelike virtual worksites, with every step scored
          for safety and skill.
        </p>
        <ul className="mt-8 flex flex-wrap gap-3" aria-label="Platform features">
          {heroChips.map((chip, i) => {
            const Icon = chipIcons[i]
            return (
              <li key={chip} className="flex items-center gap-2 rounded-full border border-white/15 bg-white/5 px-4 py-2 text-sm text-slate-100">
                <Icon className="h-4 w-4 text-amber-400" aria-hidden="true" />
                {chip}
              </li>
            )
          })}
        </ul>
        <div className="mt-10 flex flex-wrap gap-4">
          <Link href="/xr-training" className={cn(buttonVariants({ size: 'lg' }))}>
            <Headphones aria-hidden="true" />
            Launch VR Training
          </Link>
          <a
            href="#video-showcase"
            className={cn(buttonVariants({ variant: 'outline', size: 'lg' }))}
            onClick={(event) => {
              event.preventDefault()
              window.history.replaceState(window.history.state, '', '#video-showcase')
              scrollToId('video-showcase')
            }}
          >
            <Play aria-hidden="true" />
            Watch Live Demo
          </a>
        </div>
      </div>
    </section>
  )
}
