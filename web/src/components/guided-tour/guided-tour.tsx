import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react'
import { useLocation } from 'wouter'
import { ChevronLeft, ChevronRight, Compass, RotateCcw, X } from 'lucide-react'
import {
  TOUR_AUTO_OPEN_DELAY_MS,
  TOUR_PARTICLES,
  TOUR_POSITION_DELAY_MS,
  tourSteps as defaultSteps,
  type TourStep,
} from '@/content/tour'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'
import {
  clearTourCompleted,
  isDisplayed,
  isTourCompleted,
  markTourCompleted,
  placeGuide,
  tourReducer,
  type Box,
  type GuidePlacement,
  type TourAction,
  type TourState,
} from './tour-logic'
import './guided-tour.css'

/** Where the last step's 'Start Training' takes the visitor. */
const START_TRAINING_PATH = '/xr-training'
/** Room between a highlighted target and its ring. */
const HIGHLIGHT_PADDING_PX = 6

function toBox(rect: DOMRect): Box {
  return { top: rect.top, left: rect.left, width: rect.width, height: rect.height }
}

interface Layout {
  guide: GuidePlacement
  highlight: Box | null
}

interface GuideProps {
  step: TourStep
  index: number
  total: number
  onAction: (action: TourAction) => void
  onSkip: () => void
  onComplete: () => void
}

/** The open tour: the guide dialog next to its target and the highlight around the target. */
function TourGuide({ step, index, total, onAction, onSkip, onComplete }: GuideProps) {
  const guideRef = useRef<HTMLDivElement>(null)
  const titleId = useId()
  const descriptionId = useId()
  // A layout belongs to the step it was measured for; a new step starts unplaced.
  const [measured, setMeasured] = useState<{ step: TourStep; layout: Layout } | null>(null)
  const layout = measured?.step === step ? measured.layout : null
  const last = index === total - 1

  // Each step places its guide after TOUR_POSITION_DELAY_MS, giving the page
  // (and a menu the previous step may have opened) time to settle, then
  // follows its target while the page scrolls or resizes.
  useEffect(() => {
    let target: HTMLElement | null = null
    let frame = 0
    const measure = () => {
      const guide = guideRef.current
      if (!guide) return
      const box = target ? toBox(target.getBoundingClientRect()) : null
      const shown = isDisplayed(box) ? box : null
      const viewport = { width: document.documentElement.clientWidth, height: window.innerHeight }
      setMeasured({
        step,
        layout: {
          guide: placeGuide(shown, { width: guide.offsetWidth, height: guide.offsetHeight }, viewport, step.position),
          highlight: shown,
        },
      })
    }
    const onViewportChange = () => {
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(measure)
    }
    const timer = window.setTimeout(() => {
      target = step.target ? document.querySelector<HTMLElement>(step.target) : null
      const box = target ? toBox(target.getBoundingClientRect()) : null
      if (target && isDisplayed(box) && (box.top < 0 || box.top + box.height > window.innerHeight)) {
        target.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' })
      }
      if (target && isDisplayed(box)) target.dataset.tourHighlighted = 'true'
      measure()
      window.addEventListener('scroll', onViewportChange, { passive: true, capture: true })
      window.addEventListener('resize', onViewportChange)
    }, TOUR_POSITION_DELAY_MS)
    return () => {
      window.clearTimeout(timer)
      cancelAnimationFrame(frame)
      window.removeEventListener('scroll', onViewportChange, { capture: true })
      window.removeEventListener('resize', onViewportChange)
      if (target) delete target.dataset.tourHighlighted
    }
  }, [step])

  // Focus moves into the tour when it opens, and back into it when the
  // control that had it goes away (Previous becomes disabled on step 1).
  useLayoutEffect(() => {
    const guide = guideRef.current
    const active = document.activeElement
    if (guide && (!guide.contains(active) || active?.matches(':disabled'))) guide.focus({ preventScroll: true })
  }, [index])

  // Escape skips from anywhere on the page, the guide included. A layout
  // effect, so the listener is in place before the first paint.
  useLayoutEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) onSkip()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [onSkip])

  // Tab goes round the guide's controls while it is open. The guide is the
  // page's last element: Tab out of it went to the footer, scrolling the
  // page to its end under the guide. Escape and the X leave the tour.
  useEffect(() => {
    const guide = guideRef.current
    if (!guide) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Tab') return
      const controls = Array.from(guide.querySelectorAll<HTMLElement>('button:not(:disabled), a[href]'))
      const first = controls[0]
      const last = controls[controls.length - 1]
      if (!first || !last) return
      const active = document.activeElement
      if (event.shiftKey ? active === first || active === guide : active === last) {
        event.preventDefault()
        ;(event.shiftKey ? last : first).focus()
      }
    }
    guide.addEventListener('keydown', onKeyDown)
    return () => guide.removeEventListener('keydown', onKeyDown)
  }, [])

  const highlight = layout?.highlight
  return (
    <>
      {highlight && (
        <div
          className="tour-highlight pointer-events-none fixed z-[90] rounded-xl"
          data-testid="tour-highlight"
          aria-hidden="true"
          style={{
            top: highlight.top - HIGHLIGHT_PADDING_PX,
            left: highlight.left - HIGHLIGHT_PADDING_PX,
            width: highlight.width + 2 * HIGHLIGHT_PADDING_PX,
            height: highlight.height + 2 * HIGHLIGHT_PADDING_PX,
          }}
        >
          {Array.from({ length: TOUR_PARTICLES }, (_, i) => {
            const angle = (i / TOUR_PARTICLES) * 2 * Math.PI
            return (
              <span
                key={i}
                className="tour-particle"
                style={{
                  left: `${50 + 56 * Math.cos(angle)}%`,
                  top: `${50 + 70 * Math.sin(angle)}%`,
                  animationDelay: `${(i % 6) * 0.25}s`,
                }}
              />
            )
          })}
        </div>
      )}
      <div
        ref={guideRef}
        role="dialog"
        aria-modal="false"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        tabIndex={-1}
        data-testid="tour-guide"
        data-step={step.id}
        data-positioned={layout ? 'true' : 'false'}
        data-placement={layout?.guide.placement ?? 'center'}
        className={cn(
          'fixed z-[100] w-[min(22rem,calc(100vw-2rem))] rounded-2xl border border-amber-400/40 bg-slate-900 p-5 text-slate-100 shadow-2xl outline-none focus-visible:ring-2 focus-visible:ring-amber-400',
          !layout && 'left-1/2 top-1/2 -translate-x-1/2 -translate-y-1/2',
        )}
        style={layout ? { top: layout.guide.top, left: layout.guide.left } : undefined}
      >
        <div className="mb-3 flex items-center justify-between gap-3">
          <p className="text-xs font-semibold uppercase tracking-wider text-amber-300">
            Step {index + 1} of {total}
          </p>
          <button
            type="button"
            onClick={onSkip}
            aria-label="Skip tour"
            className="inline-flex h-8 w-8 items-center justify-center rounded-md text-slate-300 hover:bg-white/10 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
          >
            <X className="h-4 w-4" aria-hidden="true" />
          </button>
        </div>
        <h2 id={titleId} className="text-lg font-bold text-white">
          {step.title}
        </h2>
        <p id={descriptionId} className="mt-2 text-sm text-slate-300">
          {step.description}
        </p>
        <p className="mt-3 text-sm font-medium text-amber-300">{step.action}</p>
        <div className="mt-4 flex gap-1.5" aria-hidden="true">
          {Array.from({ length: total }, (_, i) => (
            <span key={i} className={cn('h-1.5 flex-1 rounded-full', i <= index ? 'bg-amber-400' : 'bg-slate-700')} />
          ))}
        </div>
        <div className="mt-5 flex items-center justify-between gap-2">
          <Button variant="outline" size="sm" onClick={() => onAction({ type: 'previous' })} disabled={index === 0}>
            <ChevronLeft aria-hidden="true" />
            Previous
          </Button>
          <Button size="sm" onClick={last ? onComplete : () => onAction({ type: 'next' })}>
            {last ? 'Start Training' : 'Next'}
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
      </div>
    </>
  )
}

/**
 * The guided tour (spec 000 §4): eight steps over the page, opened by itself
 * on a first visit after 2000 ms, by the 'Take Tour' button afterwards, and
 * again by a reset. Completing or skipping stores the flag.
 */
export function GuidedTour({ steps = defaultSteps }: { steps?: readonly TourStep[] }) {
  const [, navigate] = useLocation()
  const [completed, setCompleted] = useState(() => isTourCompleted())
  const [state, setState] = useState<TourState>({ open: false, step: 0 })
  const returnFocus = useRef<HTMLElement | null>(null)

  const dispatch = useCallback(
    (action: TourAction) => {
      if (action.type === 'open' && document.activeElement instanceof HTMLElement) returnFocus.current = document.activeElement
      setState((current) => tourReducer(steps.length)(current, action))
    },
    [steps.length],
  )

  // Only a first visit (no flag at load) opens the tour by itself.
  useEffect(() => {
    if (isTourCompleted()) return
    const timer = window.setTimeout(() => dispatch({ type: 'open' }), TOUR_AUTO_OPEN_DELAY_MS)
    return () => window.clearTimeout(timer)
  }, [dispatch])

  const finish = useCallback(() => {
    markTourCompleted()
    setCompleted(true)
    setState({ open: false, step: 0 })
    const previous = returnFocus.current
    returnFocus.current = null
    if (previous?.isConnected) previous.focus({ preventScroll: true })
  }, [])

  const complete = useCallback(() => {
    finish()
    navigate(START_TRAINING_PATH)
  }, [finish, navigate])

  const reset = () => {
    clearTourCompleted()
    setCompleted(false)
    dispatch({ type: 'open' })
  }

  if (state.open) {
    return (
      <TourGuide
        step={steps[state.step]}
        index={state.step}
        total={steps.length}
        onAction={dispatch}
        onSkip={finish}
        onComplete={complete}
      />
    )
  }
  if (!completed) return null
  // Floating, but docked: sticky to the viewport's bottom while the page
  // scrolls, it comes to rest at the end of the page's content, above the
  // footer, so it never covers the footer's text. It must stay the page's
  // last element, outside any container that clips overflow. On a phone it
  // floats over the content as the page scrolls, so there it is a round
  // icon, named Take Tour like the wide one, and covers as little as Reset.
  return (
    <div className="pointer-events-none sticky bottom-6 z-40 mb-6 mt-6 flex w-fit items-center gap-2 pl-6 [&>*]:pointer-events-auto" data-testid="tour-launcher">
      <Button onClick={() => dispatch({ type: 'open' })} title="Take Tour" className="rounded-full shadow-lg max-sm:h-10 max-sm:w-10 max-sm:p-0">
        <Compass aria-hidden="true" />
        <span className="max-sm:sr-only">Take Tour</span>
      </Button>
      <Button
        variant="secondary"
        size="icon"
        onClick={reset}
        aria-label="Reset tour"
        title="Reset tour"
        className="rounded-full shadow-lg"
      >
        <RotateCcw aria-hidden="true" />
      </Button>
    </div>
  )
}
