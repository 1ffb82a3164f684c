import { useRef, type ReactNode, type Ref, type VideoHTMLAttributes } from 'react'
import type { MediaSet } from '@/content/home'

/** The <source> list for a media set: WebM first, then the MP4 fallback. */
export function mediaSources(media: MediaSet): Array<{ src: string; type: string }> {
  return [
    { src: media.primary, type: 'video/webm' },
    { src: media.fallback, type: 'video/mp4' },
  ]
}

interface FallbackVideoProps extends Omit<VideoHTMLAttributes<HTMLVideoElement>, 'children' | 'muted'> {
  media: MediaSet
  /** Called once every source has failed (404, network, undecodable). */
  onAllFailed: (sources: string[]) => void
  /** Shown by browsers without <video> support. */
  children?: ReactNode
  ref?: Ref<HTMLVideoElement>
}

/**
 * A <video> with a primary and a fallback source. The browser tries them in
 * order and fires `error` at each <source> that fails; when the last one has
 * failed too, onAllFailed is told which files were tried. The footage we
 * ship has no sound track, so the player is always muted and needs no captions.
 */
export function FallbackVideo({ media, onAllFailed, children, ref, ...props }: FallbackVideoProps) {
  const sources = mediaSources(media)
  const failed = useRef(new Set<string>())
  const onSourceError = (src: string) => {
    failed.current.add(src)
    if (failed.current.size === sources.length) onAllFailed(sources.map((s) => s.src))
  }
  return (
    <video ref={ref} poster={media.poster} {...props} muted>
      {sources.map((s) => (
        <source key={s.src} src={s.src} type={s.type} onError={() => onSourceError(s.src)} />
      ))}
      {children}
    </video>
  )
}
