import { useId, useState } from 'react'
import { Link } from 'wouter'
import { ShieldCheck, ShieldAlert } from 'lucide-react'
import { useLearner, useSessionReview, type ReviewWeld, type SessionReview } from '@/api/portal'
import { Badge } from '@/components/ui/badge'
import type { PageProps } from '@/lib/page'
import { cn } from '@/lib/utils'
import { METRICS, formatMetric, metricKeys, positionNames, techniqueNames } from '@/lib/weld'
import { PortalAccess, PortalPage } from './components/portal-access'
import { FigureCards, LoadError, Loading, PortalHeader, ScrollTable, linkClass } from './components/shared'
import { TimelineReplay } from './components/timeline-replay'
import { formatClock, formatClockTenths, formatDateTime, formatDuration, formatScore, formatStepDuration } from './lib/format'
import { outcomeLabel } from '@/api/xr-sessions'
import { deviceLabel, modeLabel, verificationLabel } from './lib/session'

/** /portal/learners/:id/sessions/:sessionId: one recorded session, step by step, with a replay of its timeline. */
export default function SessionReviewPage({ params }: PageProps) {
  return <PortalAccess>{() => <Review key={`${params.id}/${params.sessionid}`} userId={params.id} sessionId={params.sessionid} />}</PortalAccess>
}

function Review({ userId, sessionId }: { userId: string; sessionId: string }) {
  const review = useSessionReview(userId, sessionId)
  // Only for the way back: the learner's name in the crumbs. The page does not wait for it.
  const learner = useLearner(userId)
  const learnerName = learner.data ? learner.data.learner.displayName || learner.data.learner.email : 'Learner'
  const session = review.data?.session

  return (
    <PortalPage>
      <PortalHeader
        trail={[
          { label: 'Portal', href: '/portal' },
          { label: learnerName, href: `/portal/learners/${encodeURIComponent(userId)}` },
        ]}
        title={session ? session.moduleTitle || session.moduleId : 'Session review'}
        subtitle={
          session && (
            <p>
              Session review · {learnerName} · <time dateTime={session.startedAt}>{formatDateTime(session.startedAt)}</time>
            </p>
          )
        }
      />
      {review.isPending ? (
        <Loading what="the session" />
      ) : review.isError ? (
        <LoadError error={review.error} what="this session" noun="session">
          <p className="mt-2">
            <Link href={`/portal/learners/${encodeURIComponent(userId)}`} className={linkClass}>
              Back to the learner
            </Link>
          </p>
        </LoadError>
      ) : (
        <ReviewBody review={review.data} />
      )}
    </PortalPage>
  )
}

function ReviewBody({ review }: { review: SessionReview }) {
  const [currentStep, setCurrentStep] = useState(-1)
  const { session, steps, safetyChecks } = review
  const verification = verificationLabel(session)
  const device = deviceLabel(session.deviceType)

  return (
    <div className="space-y-10">
      <section aria-labelledby="summary-heading">
        <h2 id="summary-heading" className="mb-4 text-xl font-semibold text-white">
          Summary
        </h2>
        <FigureCards
          label="Summary figures"
          figures={[
            { label: 'Outcome', value: outcomeLabel(session.completionStatus, session.outcome), attention: session.outcome === 'failed' },
            { label: 'Safety score', value: session.safetyScore === null ? 'No score' : formatScore(session.safetyScore) },
            { label: 'Duration', value: formatDuration(session.duration) },
            { label: 'Verification', value: verification, attention: verification === 'Unverified' },
            { label: 'Mode', value: modeLabel(session.sessionType) },
            // Named as a person names it, with the browser's own words in small print.
            { label: 'Device', value: device, long: device.length > 10, note: device !== session.deviceType ? session.deviceType : undefined },
            { label: 'Started', value: formatDateTime(session.startedAt), long: true },
            { label: 'Ended', value: session.endedAt ? formatDateTime(session.endedAt) : 'Not ended', long: !!session.endedAt },
          ]}
        />
        {session.verificationIssues.length > 0 && (
          <div className="mt-4 rounded-lg border border-amber-500/40 bg-amber-500/10 px-4 py-3 text-sm text-amber-100" data-testid="verification-issues">
            <h3 className="flex items-center gap-2 font-semibold text-amber-200">
              <ShieldAlert className="h-4 w-4" aria-hidden="true" />
              Why this session is not verified
            </h3>
            <ul className="mt-2 list-disc space-y-1 pl-5">
              {session.verificationIssues.map((issue) => (
                <li key={issue}>{issue}</li>
              ))}
            </ul>
          </div>
        )}
      </section>

      <section aria-labelledby="replay-heading">
        <h2 id="replay-heading" className="mb-1 text-xl font-semibold text-white">
          Replay
        </h2>
        <p className="mb-4 text-sm text-slate-300">Steps along the session&apos;s own clock, and a tick for every recorded action. Play it, or move the slider.</p>
        <TimelineReplay review={review} onStepChange={setCurrentStep} />
      </section>

      <StepsTable steps={steps} currentStep={currentStep} />

      {review.welds.length > 0 && <Welds welds={review.welds} />}

      <section aria-labelledby="checks-heading">
        <h2 id="checks-heading" className="mb-4 text-xl font-semibold text-white">
          Safety checks
        </h2>
        {safetyChecks.length === 0 ? (
          <p className="text-slate-300">This module has no safety checks.</p>
        ) : (
          <ul className="grid gap-2 sm:grid-cols-2" aria-labelledby="checks-heading">
            {safetyChecks.map((c) => (
              <li key={c.id} className="flex items-start gap-3 rounded-lg border border-white/10 bg-slate-900/70 px-4 py-3" data-check={c.id}>
                {c.status === 'passed' ? <ShieldCheck className="mt-0.5 h-5 w-5 shrink-0 text-emerald-400" aria-hidden="true" /> : <ShieldAlert className="mt-0.5 h-5 w-5 shrink-0 text-amber-400" aria-hidden="true" />}
                <span className="min-w-0 flex-1 text-slate-100">{c.description}</span>
                <Badge variant={c.status === 'passed' ? 'secondary' : 'outline'} className={cn(c.status === 'passed' ? 'bg-emerald-500/15 text-emerald-200' : 'border-amber-400/60 text-amber-200')}>
                  {c.status === 'passed' ? 'Passed' : 'Skipped'}
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}

/** A name from the simulator's list, or the stored text when it is not one. */
const named = (names: Record<string, string>, key: string) => names[key] ?? key

/** The session's welds (AR welding simulator): settings, final readings and the server's quality. */
function Welds({ welds }: { welds: ReviewWeld[] }) {
  return (
    <section aria-labelledby="welds-heading">
      <h2 id="welds-heading" className="mb-1 text-xl font-semibold text-white">
        Welds
      </h2>
      <p className="mb-4 text-sm text-slate-300">Each weld&apos;s final readings; the quality is the server&apos;s, worked out from them.</p>
      <div className="space-y-6">
        {welds.map((w) => {
          const title = `Weld at ${formatClock(w.sessionTime)}: ${named(techniqueNames, w.technique)}, ${w.material}, ${named(positionNames, w.position)}`
          return (
            <div key={w.seq} data-testid="review-weld">
              <h3 className="mb-3 font-semibold text-slate-100">{title}</h3>
              <FigureCards
                label={title}
                figures={[
                  { label: 'Quality', value: `${w.qualityScore.toFixed(1)} ${w.qualityLabel}`, attention: w.qualityScore < 70 },
                  ...metricKeys
                    .filter((k) => w.metrics[k] !== undefined)
                    .map((k) => ({ label: METRICS[k].label, value: `${formatMetric(k, w.metrics[k])} ${METRICS[k].unit}` })),
                ]}
              />
            </div>
          )
        })}
      </div>
    </section>
  )
}

const stepStatusStyle = {
  completed: 'bg-emerald-500/15 text-emerald-200',
  skipped: 'bg-amber-500/15 text-amber-200',
  missed: 'bg-slate-500/20 text-slate-200',
} as const

const stepStatusLabel = { completed: 'Completed', skipped: 'Skipped', missed: 'Missed' } as const

function StepsTable({ steps, currentStep }: { steps: SessionReview['steps']; currentStep: number }) {
  const captionId = useId()
  return (
    <section aria-labelledby="steps-heading">
      <h2 id="steps-heading" className="mb-4 text-xl font-semibold text-white">
        Steps
      </h2>
      {steps.length === 0 ? (
        <p className="text-slate-300">This module has no steps.</p>
      ) : (
        <ScrollTable labelledBy={captionId}>
          <table className="w-full min-w-[40rem] text-left text-sm">
            <caption id={captionId} className="sr-only">
              Steps in the module&apos;s order; the step under the replay&apos;s playhead is marked current
            </caption>
            <thead className="bg-slate-800/80 text-xs uppercase tracking-wide text-slate-200">
              <tr>
                <th scope="col" className="w-12 px-3 py-2.5 font-semibold">
                  #
                </th>
                <th scope="col" className="px-3 py-2.5 font-semibold">
                  Instruction
                </th>
                <th scope="col" className="px-3 py-2.5 font-semibold">
                  Status
                </th>
                <th scope="col" className="px-3 py-2.5 text-right font-semibold">
                  Started at
                </th>
                <th scope="col" className="px-3 py-2.5 text-right font-semibold">
                  Duration
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-white/10">
              {steps.map((s, i) => {
                const current = i === currentStep
                return (
                  <tr key={s.id} data-step={s.id} aria-current={current ? 'step' : undefined} className={cn(current && 'bg-amber-500/10 outline outline-2 -outline-offset-2 outline-amber-400/70')}>
                    <td className="px-3 py-2.5 tabular-nums text-slate-300">{i + 1}</td>
                    <th scope="row" className="px-3 py-2.5 font-normal text-white">
                      {s.instruction}
                      {s.safetyCheckId && (
                        <Badge variant="outline" className="ml-2 border-amber-400/60 align-middle text-amber-200">
                          Safety check
                        </Badge>
                      )}
                      {current && <span className="sr-only"> (current step)</span>}
                    </th>
                    <td className="px-3 py-2.5">
                      <span className={cn('inline-block rounded px-2 py-0.5 text-xs font-semibold', stepStatusStyle[s.status])}>{stepStatusLabel[s.status]}</span>
                    </td>
                    <td className="px-3 py-2.5 text-right tabular-nums text-slate-200">{s.startMs === null ? '—' : formatClockTenths(s.startMs)}</td>
                    <td className="px-3 py-2.5 text-right tabular-nums text-slate-200">{s.durationMs === null ? '—' : formatStepDuration(s.durationMs)}</td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </ScrollTable>
      )}
    </section>
  )
}
