import { useCallback, useEffect, useRef, useState } from 'react'
import { advance } from '../lib/timeline'

export interface Playback {
  /** The playhead, in ms of the session's clock. */
  t: number
  playing: boolean
  /** Plays from the playhead, or from the start when it is at the end. */
  play: () => void
  pause: () => void
  /** Moves the playhead; playing goes on from there. */
  seek: (t: number) => void
}

/**
 * A playhead that runs over [0, end] at speed× real time, one step per
 * animation frame, and stops at the end. Frames are timed from their own
 * timestamps, so a slow or throttled tab replays at the right pace, only
 * less smoothly.
 */
export function usePlayback(end: number, speed: number): Playback {
  const [t, setT] = useState(0)
  const [playing, setPlaying] = useState(false)
  // The frame loop reads these without restarting when they change.
  const tRef = useRef(0)
  const speedRef = useRef(speed)
  useEffect(() => {
    speedRef.current = speed
  }, [speed])

  const seek = useCallback(
    (to: number) => {
      const clamped = Math.min(end, Math.max(0, to))
      tRef.current = clamped
      setT(clamped)
    },
    [end],
  )

  useEffect(() => {
    if (!playing) return
    let frame = 0
    let last: number | null = null
    const tick = (now: number) => {
      const step = advance(tRef.current, last === null ? 0 : now - last, speedRef.current, end)
      last = now
      tRef.current = step.t
      setT(step.t)
      if (step.done) setPlaying(false)
      else frame = requestAnimationFrame(tick)
    }
    frame = requestAnimationFrame(tick)
    return () => cancelAnimationFrame(frame)
  }, [playing, end])

  const play = useCallback(() => {
    if (tRef.current >= end) seek(0)
    setPlaying(end > 0)
  }, [end, seek])
  const pause = useCallback(() => setPlaying(false), [])

  return { t, playing, play, pause, seek }
}
