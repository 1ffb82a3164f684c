import { useEffect, useRef, type RefObject } from 'react'
import { Check, SkipForward } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'
import { SafetyCheckNote } from '@/components/xr/safety-check-note'
import type { Scene } from '@/components/xr/types'
import type { StepStatus } from '@/components/xr/training-run'

export interface StepListProps {
  scene: Scene
  status?: Record<string, StepStatus>
  currentStepId?: string
  /** Whether a session is running, so steps can be done or skipped. */
  active: boolean
  /** Ms until the current step can be completed (its minimum duration); 0 or absent: now. */
  readyInMs?: number
  finished: boolean
  /** Does the current step from the keyboard: activates its target object. */
  onDo(objectId: string): void
  onSkip(): void
  /** Where focus goes once the last step is done from the list: End Session. */
  endButton?: RefObject<HTMLElement | null>
}

const statusText: Record<StepStatus, string> = { pending: 'To do', done: 'Done', skipped: 'Skipped' }

/**
 * The scene's steps with their instructions, and keyboard-operable buttons
 * to do or skip the current one: every step can be done without pointing.
 */
export function StepList({ scene, status, currentStepId, active, readyInMs = 0, finished, onDo, onSkip, endButton }: StepListProps) {
  const currentButton = useRef<HTMLButtonElement>(null)
  const actedHere = useRef(false)
  // A step done or skipped takes its buttons away: focus moves on to the next step's (or to End
  // Session), so keyboard and screen-reader users keep their place. Focus lost some other way (a
  // session started, an object selected in the scene) goes there too, without scrolling the page.
  useEffect(() => {
    const lost = !document.activeElement || document.activeElement === document.body
    if (!actedHere.current && !lost) return
    const target = currentButton.current ?? (finished ? endButton?.current : null)
    target?.focus({ preventScroll: !actedHere.current })
    actedHere.current = false
  }, [currentStepId, active, finished, endButton])
  const checks = new Map(scene.safetyChecks.map((c) => [c.id, c]))
  const objects = new Map(scene.objects.map((o) => [o.id, o]))
  return (
    <section aria-labelledby="xr-steps-heading" className="space-y-2">
      <h3 id="xr-steps-heading" className="text-base font-semibold text-white">
        Steps
      </h3>
      {scene.environment ? <p className="text-sm text-slate-300">{scene.environment}</p> : null}
      <ol className="space-y-2">
        {scene.steps.map((step, index) => {
          const s = status?.[step.id] ?? 'pending'
          const current = active && step.id === currentStepId
          const check = step.safetyCheckId ? checks.get(step.safetyCheckId) : undefined
          return (
            <li
              key={step.id}
              aria-current={current ? 'step' : undefined}
              data-step-id={step.id}
              data-status={s}
              className={cn(
                'rounded-md border p-3 text-sm',
                current ? 'border-amber-400 bg-amber-400/10' : 'border-white/10 bg-slate-950/40',
                s === 'done' && 'border-emerald-500/40',
                s === 'skipped' && 'border-red-500/40',
              )}
            >
              <div className="flex flex-wrap items-start gap-2">
                <span className="font-semibold text-white">Step {index + 1}.</span>
                <span className="flex-1 text-slate-100">{step.instruction}</span>
                <Badge variant={s === 'done' ? 'secondary' : 'outline'}>{statusText[s]}</Badge>
              </div>
              <p className="mt-1 text-xs text-slate-400">
                {step.action === 'grab' ? 'Grab' : 'Select'}: {objects.get(step.target)?.label ?? step.target}
                {check ? (
                  <SafetyCheckNote className="ml-2" description={check.description} />
                ) : null}
              </p>
              {current ? (
                <div className="mt-2 flex flex-wrap items-center gap-2">
                  {/* Unavailable, not disabled: the button stays focusable and says why it waits. */}
                  <Button
                    ref={currentButton}
                    size="sm"
                    unavailable={readyInMs > 0}
                    aria-describedby={readyInMs > 0 ? `xr-step-wait-${step.id}` : undefined}
                    onClick={() => {
                      actedHere.current = true
                      onDo(step.target)
                    }}
                  >
                    <Check aria-hidden="true" />
                    Complete step {index + 1}
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => {
                      actedHere.current = true
                      onSkip()
                    }}
                  >
                    <SkipForward aria-hidden="true" />
                    Skip step {index + 1}
                  </Button>
                  {readyInMs > 0 ? (
                    <span id={`xr-step-wait-${step.id}`} className="text-xs text-slate-300" data-testid="step-wait">
                      Take a moment with this step: it can be completed in {Math.ceil(readyInMs / 1000)} s.
                    </span>
                  ) : null}
                </div>
              ) : null}
            </li>
          )
        })}
      </ol>
      {active && finished ? (
        <p role="status" className="text-sm text-emerald-200">
          All steps done. Select End Session to record your result.
        </p>
      ) : null}
    </section>
  )
}
