import { useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react'
import { Pause, Play, SkipBack, SkipForward } from 'lucide-react'
import type { ReviewStep, SessionReview } from '@/api/portal'
import { Button } from '@/components/ui/button'
import { useReducedMotion } from '@/lib/appearance'
import { cn } from '@/lib/utils'
import { usePlayback } from '../hooks/use-playback'
import { formatClock, formatClockTenths } from '../lib/format'
import { currentStepIndex, kindLabel, playbackSpeeds, position, positionText, stepAnnouncement, timelineEnd, type PlaybackSpeed } from '../lib/timeline'

const statusBar: Record<ReviewStep['status'], string> = {
  completed: 'bg-emerald-500/70',
  skipped: 'bg-amber-500/70',
  missed: 'bg-slate-600',
}

/**
 * The session replayed along its own clock: the steps as spans and every
 * recorded action as a tick, a playhead moved by Play or by the slider, and
 * a polite live line that names the step under the playhead whenever it
 * changes. onStepChange tells the page which step to highlight.
 */
export function TimelineReplay({ review, onStepChange }: { review: SessionReview; onStepChange: (index: number) => void }) {
  const end = useMemo(() => timelineEnd(review), [review])
  const [speed, setSpeed] = useState<PlaybackSpeed>(1)
  const { t, playing, play, pause, seek } = usePlayback(end, speed)
  const reducedMotion = useReducedMotion()
  const sliderId = useId()
  const { steps, events } = review

  const stepIndex = currentStepIndex(steps, t)
  useEffect(() => onStepChange(stepIndex), [stepIndex, onStepChange])
  // Said once per step, not at every frame: the region is only re-read when its text changes.
  const announcement = stepAnnouncement(steps, stepIndex)

  const timed = steps.map((s, i) => ({ s, i })).filter(({ s }) => s.startMs !== null && s.endMs !== null)
  const starts = [...new Set(timed.map(({ s }) => s.startMs ?? 0))].sort((a, b) => a - b)
  const previousStart = [...starts].reverse().find((ms) => ms < t - 500) ?? 0
  const nextStart = starts.find((ms) => ms > t)

  // One second per arrow key; Page Up and Page Down jump ten, for long sessions.
  const onSliderKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'PageUp' || e.key === 'PageDown') {
      e.preventDefault()
      seek(t + (e.key === 'PageUp' ? 10_000 : -10_000))
    }
  }

  return (
    <div className="space-y-4" data-testid="timeline-replay">
      <div className="relative select-none pt-1" aria-hidden="true">
        {/* Steps: a lane of spans, the one under the playhead outlined. */}
        <div className="relative h-7 rounded bg-slate-800/70">
          {timed.map(({ s, i }) => (
            <div
              key={s.id}
              className={cn('absolute inset-y-0 rounded-sm border-r border-slate-950', statusBar[s.status], i === stepIndex && 'ring-2 ring-inset ring-white', s.safetyCheckId && 'bg-[repeating-linear-gradient(135deg,transparent_0_6px,rgb(255_255_255/0.18)_6px_9px)]')}
              style={{ left: `${position(s.startMs ?? 0, end)}%`, width: `${Math.max(0.4, position((s.endMs ?? 0) - (s.startMs ?? 0), end))}%` }}
            >
              <span className="absolute inset-0 flex items-center justify-center text-[0.65rem] font-bold text-white">{i + 1}</span>
            </div>
          ))}
        </div>
        {/* Actions: a tick each, at its sessionTime. */}
        <div className="relative mt-1 h-4">
          {events.map((e) => (
            <span key={e.seq} className={cn('absolute top-0 h-4 w-px', e.kind === 'skip' ? 'bg-amber-300' : 'bg-sky-300/80')} style={{ left: `${position(e.sessionTime, end)}%` }} />
          ))}
        </div>
        <div
          className={cn('pointer-events-none absolute -bottom-1 top-0 w-0.5 -translate-x-1/2 bg-white shadow-[0_0_0_1px_rgb(2_6_23)]', !reducedMotion && playing && 'motion-safe:shadow-[0_0_8px_2px_rgb(251_191_36/0.6)]')}
          style={{ left: `${position(t, end)}%` }}
          data-testid="playhead"
        />
      </div>

      {/* Explains the drawing above, which is hidden from assistive technology like it (the steps table says the same). */}
      <ul className="-mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-300" aria-hidden="true">
        <li className="flex items-center gap-1.5">
          <span className="h-2.5 w-4 rounded-sm bg-emerald-500/70" /> Completed
        </li>
        <li className="flex items-center gap-1.5">
          <span className="h-2.5 w-4 rounded-sm bg-amber-500/70" /> Skipped
        </li>
        <li className="flex items-center gap-1.5">
          <span className="h-2.5 w-4 rounded-sm bg-slate-600 bg-[repeating-linear-gradient(135deg,transparent_0_3px,rgb(255_255_255/0.35)_3px_5px)]" /> Safety check
        </li>
        <li className="flex items-center gap-1.5">
          <span className="h-3 w-px bg-sky-300/80" /> Action
        </li>
      </ul>

      <div>
        <label htmlFor={sliderId} className="sr-only">
          Replay position
        </label>
        <input
          id={sliderId}
          type="range"
          min={0}
          max={end}
          step={1000}
          value={Math.floor(t / 1000) * 1000}
          aria-valuetext={positionText(t, end)}
          onChange={(e) => seek(Number(e.target.value))}
          onKeyDown={onSliderKey}
          disabled={end === 0}
          className="w-full accent-amber-500"
        />
        <div className="mt-1 flex justify-between text-xs tabular-nums text-slate-300">
          <span>0:00</span>
          <span>
            <span className="font-semibold text-white">{formatClock(t)}</span> / {formatClock(end)}
          </span>
        </div>
      </div>

      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={playing ? pause : play} disabled={end === 0} className="min-w-24">
          {playing ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
          {playing ? 'Pause' : 'Play'}
        </Button>
        <Button variant="outline" size="icon" aria-label="Previous step" disabled={starts.length === 0} onClick={() => seek(previousStart)}>
          <SkipBack aria-hidden="true" />
        </Button>
        <Button variant="outline" size="icon" aria-label="Next step" disabled={nextStart === undefined} onClick={() => nextStart !== undefined && seek(nextStart)}>
          <SkipForward aria-hidden="true" />
        </Button>
        <div role="group" aria-label="Replay speed" className="ml-auto inline-flex overflow-hidden rounded-md border border-white/20">
          {playbackSpeeds.map((s) => (
            <button
              key={s}
              type="button"
              aria-pressed={speed === s}
              onClick={() => setSpeed(s)}
              className={cn(
                'h-9 px-3 text-sm font-semibold tabular-nums focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-amber-400',
                speed === s ? 'bg-amber-500 text-slate-950' : 'text-slate-200 hover:bg-white/10',
              )}
            >
              {s}×
            </button>
          ))}
        </div>
      </div>

      <p aria-live="polite" className="min-h-6 text-sm font-medium text-white" data-testid="replay-announcement">
        {announcement || (steps.length > 0 ? 'No step was begun in this session.' : 'This module has no steps.')}
      </p>

      <details className="rounded-lg border border-white/10 bg-slate-900/50 px-4 py-2 text-sm">
        <summary className="cursor-pointer rounded py-1 font-medium text-slate-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400">
          Every recorded action ({events.length})
        </summary>
        {events.length === 0 ? (
          <p className="py-2 text-slate-300">No actions were recorded.</p>
        ) : (
          // Focusable, so the keyboard can scroll a long list (axe: scrollable-region-focusable).
          <div role="region" aria-label="Recorded actions" tabIndex={0} className="max-h-64 overflow-y-auto rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400">
          <ol className="space-y-0.5 py-2 text-slate-200">
            {events.map((e) => (
              <li key={e.seq} className="grid grid-cols-[4.5rem_minmax(0,1fr)] gap-2">
                <span className="tabular-nums text-slate-400">{formatClockTenths(e.sessionTime)}</span>
                <span className="min-w-0 break-words">
                  {kindLabel(e.kind)}
                  {e.objectId && <> · {e.objectId}</>}
                  {e.stepId && <span className="text-slate-400"> (step {e.stepId})</span>}
                </span>
              </li>
            ))}
          </ol>
          </div>
        )}
      </details>
    </div>
  )
}
