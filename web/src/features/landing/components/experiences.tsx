import { useEffect, useRef, useState } from 'react'
import { Link } from 'wouter'
import { Clock, Expand, Eye, Gauge, Minimize, Orbit, Pause, Play, Rocket } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button, buttonVariants } from '@/components/ui/button'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { experiences, type Experience } from '@/content/landing'
import { cn } from '@/lib/utils'
import { PanoramaViewer } from './panorama-viewer'

/** The XR Training Center, with this experience's module chosen. */
export function trainingHref(moduleId: string): string {
  return `/xr-training?module=${encodeURIComponent(moduleId)}`
}

/** Whether the fullscreen element is (inside) this node. */
function useFullscreen(ref: React.RefObject<HTMLElement | null>) {
  const [active, setActive] = useState(false)
  useEffect(() => {
    const update = () => setActive(!!document.fullscreenElement && document.fullscreenElement === ref.current)
    document.addEventListener('fullscreenchange', update)
    return () => document.removeEventListener('fullscreenchange', update)
  }, [ref])
  const toggle = async () => {
    try {
      if (document.fullscreenElement) await document.exitFullscreen()
      else await ref.current?.requestFullscreen()
    } catch (error) {
      console.error('Fullscreen was refused:', error)
    }
  }
  return { active, toggle, supported: typeof document !== 'undefined' && document.fullscreenEnabled !== false }
}

function VideoUnsupported({ experience }: { experience: Experience }) {
  return (
    <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-slate-900/90 p-6 text-center" data-testid="video-unsupported">
      <p className="text-slate-100">Your browser does not support video playback.</p>
      <a href={experience.videoUrl} target="_blank" rel="noopener noreferrer" className={cn(buttonVariants({ variant: 'outline', size: 'sm' }))}>
        Watch video in new tab
      </a>
    </div>
  )
}

/** One experience: its media pane with Preview, 360° and fullscreen, its details and launch links. */
function ExperiencePanel({ experience }: { experience: Experience }) {
  const stage = useRef<HTMLDivElement>(null)
  const video = useRef<HTMLVideoElement>(null)
  const [mode, setMode] = useState<'video' | 'panorama'>('video')
  const [playing, setPlaying] = useState(false)
  const [unsupported, setUnsupported] = useState(false)
  const fullscreen = useFullscreen(stage)

  useEffect(() => {
    const el = video.current
    if (el && typeof el.canPlayType === 'function' && experience.videoSources.every((s) => el.canPlayType(s.type) === '')) setUnsupported(true)
  }, [experience])

  const togglePreview = async () => {
    if (mode !== 'video') setMode('video')
    const el = video.current
    if (!el) return
    if (playing) {
      el.pause()
      return
    }
    try {
      await el.play()
    } catch (error) {
      // A source that cannot be decoded rejects here; the error event shows the fallback.
      console.error(`Preview of ${experience.title} could not play:`, error)
    }
  }

  return (
    <div className="grid gap-8 lg:grid-cols-5">
      {/* The stage and its controls go fullscreen together, so the controls stay usable there. */}
      <div
        ref={stage}
        data-testid="experience-stage"
        className={cn('lg:col-span-3', fullscreen.active && 'flex h-full flex-col bg-black p-4')}
      >
        <div
          className={cn(
            'relative overflow-hidden rounded-xl border border-white/10 bg-slate-900',
            fullscreen.active ? 'min-h-0 flex-1' : 'aspect-video',
          )}
        >
          <video
            ref={video}
            key={experience.id}
            className={cn('h-full w-full', fullscreen.active ? 'object-contain' : 'object-cover', mode !== 'video' && 'invisible')}
            muted
            loop
            playsInline
            preload="metadata"
            poster={experience.thumbnail}
            aria-label={`${experience.title} preview video`}
            data-testid="experience-video"
            onPlay={() => setPlaying(true)}
            onPause={() => setPlaying(false)}
          >
            {experience.videoSources.map((source, i) => (
              <source
                key={source.src}
                src={source.src}
                type={source.type}
                onError={i === experience.videoSources.length - 1 ? () => setUnsupported(true) : undefined}
              />
            ))}
            Your browser does not support video playback.{' '}
            <a href={experience.videoUrl} target="_blank" rel="noopener noreferrer">
              Watch video in new tab
            </a>
          </video>
          {mode === 'video' && unsupported && <VideoUnsupported experience={experience} />}
          {mode === 'panorama' && <PanoramaViewer src={experience.panorama} label={`360° view of ${experience.title}`} />}
          {playing && mode === 'video' && (
            <Badge variant="live" className="absolute left-3 top-3">
              Preview playing
            </Badge>
          )}
        </div>
        <div className="mt-4 flex flex-wrap gap-2" role="group" aria-label={`${experience.title} viewer controls`}>
          <Button variant="secondary" size="sm" aria-pressed={playing} disabled={unsupported} onClick={togglePreview}>
            {playing ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
            Preview Mode
          </Button>
          <Button variant="secondary" size="sm" aria-pressed={mode === 'panorama'} onClick={() => {
            video.current?.pause()
            setMode((m) => (m === 'panorama' ? 'video' : 'panorama'))
          }}>
            <Orbit aria-hidden="true" />
            360° View
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={!fullscreen.supported}
            onClick={fullscreen.toggle}
            aria-label={fullscreen.active ? 'Exit fullscreen' : 'Fullscreen'}
          >
            {fullscreen.active ? <Minimize aria-hidden="true" /> : <Expand aria-hidden="true" />}
            {fullscreen.active ? 'Exit fullscreen' : 'Fullscreen'}
          </Button>
        </div>
      </div>

      <div className="lg:col-span-2">
        <h3 className="text-2xl font-bold text-white">{experience.title}</h3>
        <div className="mt-3 flex flex-wrap gap-2">
          <Badge variant="outline" className="gap-1 py-1">
            <Clock className="h-3.5 w-3.5" aria-hidden="true" />
            {experience.duration}
          </Badge>
          <Badge variant="secondary" className="gap-1 py-1">
            <Gauge className="h-3.5 w-3.5" aria-hidden="true" />
            {experience.difficulty}
          </Badge>
        </div>
        <p className="mt-4 text-slate-300">{experience.description}</p>
        <h4 className="mt-6 text-sm font-semibold uppercase tracking-wide text-slate-400">Skills you will practise</h4>
        <ul className="mt-2 space-y-1.5">
          {experience.skills.map((skill) => (
            <li key={skill} className="flex items-center gap-2 text-slate-200">
              <span className="h-1.5 w-1.5 rounded-full bg-amber-400" aria-hidden="true" />
              {skill}
            </li>
          ))}
        </ul>
        <div className="mt-8 flex flex-wrap gap-3">
          <Link href={trainingHref(experience.moduleId)} className={cn(buttonVariants())}>
            <Rocket aria-hidden="true" />
            Start VR Experience
          </Link>
          <Link href={trainingHref(experience.moduleId)} className={cn(buttonVariants({ variant: 'outline' }))}>
            <Eye aria-hidden="true" />
            Launch in VR
          </Link>
        </div>
      </div>
    </div>
  )
}

/** Immersive VR Experiences: three to choose from, welding first (spec 000 §2, §4). */
export function ImmersiveExperiences() {
  const [selected, setSelected] = useState<Experience['id']>('welding')
  return (
    <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
      <h2 id="experiences-title" className="text-3xl font-bold text-white sm:text-4xl">
        Immersive VR Experiences
      </h2>
      <p className="mt-3 max-w-2xl text-slate-300">
        Step into a worksite. Preview each experience, look around it in 360°, then launch it in the XR Training Center.
      </p>
      <Tabs value={selected} onValueChange={(v) => setSelected(v as Experience['id'])} className="mt-8">
        <TabsList aria-label="Experiences">
          {experiences.map((e) => (
            <TabsTrigger key={e.id} value={e.id}>
              {e.title}
            </TabsTrigger>
          ))}
        </TabsList>
        {experiences.map((e) => (
          <TabsContent key={e.id} value={e.id} className="mt-6">
            <ExperiencePanel experience={e} />
          </TabsContent>
        ))}
      </Tabs>
    </div>
  )
}
