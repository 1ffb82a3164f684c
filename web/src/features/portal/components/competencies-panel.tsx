import { useId, useRef, useState, type ReactNode } from 'react'
import { Link } from 'wouter'
import { Controller, useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Award, CheckCircle2, ChevronRight, Circle, ShieldCheck } from 'lucide-react'
import { useCompetencies, type ModuleCompetencies, type StoredCertificate } from '@/api/certificates'
import { useRevokeSignOff, useSignOff } from '@/api/sign-offs'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible'
import { FormAlert, FormField } from '@/components/ui/form-field'
import { Textarea } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Progress } from '@/components/ui/progress'
import { formErrors } from '@/lib/form-errors'
import { cn } from '@/lib/utils'
import { moduleBegun, programmeGroups, signOffFormSchema, signOffFormValues, signOffInput, unsignedIndexes, type ModuleCompetency, type ProgrammeGroup } from '../lib/competencies'
import { formatDate, formatDateTime, formatScore, plural } from '../lib/format'
import { RevokeDialog } from './revoke-dialog'
import { LoadError, Loading, linkClass } from './shared'

export const certificateHref = (c: Pick<StoredCertificate, 'id'>) => `/certificates/${encodeURIComponent(c.id)}`
const reviewHref = (userId: string, sessionId: string) => `/portal/learners/${encodeURIComponent(userId)}/sessions/${encodeURIComponent(sessionId)}`

/** Who is being signed off, and whether the caller may: nobody signs off their own competencies. */
export interface SignOffContext {
  userId: string
  learnerName: string
  /** Why the caller cannot sign off here at all, or null when they can. */
  blocked: string | null
}

/**
 * The learner's programmes, each with its progress and, opened, its
 * modules: the evidence a module's sign-off rests on, each competency and
 * who signed it off, a form to sign off the rest, and a way to revoke.
 */
export function CompetenciesPanel(context: SignOffContext) {
  const competencies = useCompetencies(context.userId)
  if (competencies.isPending) return <Loading what="the competencies" />
  if (competencies.isError) return <LoadError error={competencies.error} what="the competencies" noun="learner" />
  const groups = programmeGroups(competencies.data)
  if (groups.length === 0) return <p className="rounded-lg border border-dashed border-white/15 px-4 py-8 text-center text-slate-300">The catalog has no programmes yet.</p>
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-300">
        A programme is every competency of one trade&apos;s modules; when all are signed off, a certificate is issued. A module is signed off on the learner&apos;s best verified pass of it.
      </p>
      {groups.map((g) => (
        <ProgrammeSection key={g.programme?.id ?? 'other'} group={g} context={context} />
      ))}
    </div>
  )
}

function ProgrammeSection({ group, context }: { group: ProgrammeGroup; context: SignOffContext }) {
  const headingId = useId()
  const { programme } = group
  const percent = programme && programme.total > 0 ? (programme.held / programme.total) * 100 : 0
  return (
    <Collapsible defaultOpen={group.active} asChild>
      <section aria-labelledby={headingId} className="rounded-xl border border-white/10 bg-slate-900/60" data-programme={programme?.id ?? 'other'}>
        <div className="flex flex-wrap items-center gap-x-6 gap-y-3 p-3 sm:p-4">
          <div className="min-w-0 flex-1 basis-64">
            <h3 id={headingId} className="text-lg font-semibold text-white">
              <CollapsibleTrigger className="group -mx-1 flex items-center gap-2 rounded px-1 text-left hover:text-amber-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400">
                <ChevronRight className="h-5 w-5 shrink-0 text-slate-300 transition-transform group-data-[state=open]:rotate-90" aria-hidden="true" />
                {group.name}
              </CollapsibleTrigger>
            </h3>
            <p className="mt-0.5 pl-7 text-sm text-slate-300">
              {plural(group.modules.length, 'module')} · {group.passed} with a verified pass
            </p>
          </div>
          {programme && (
            <div className="w-full sm:w-72">
              <p className="mb-1.5 text-sm text-slate-200">
                <span className="font-semibold tabular-nums text-white">
                  {programme.held} of {programme.total}
                </span>{' '}
                competencies signed off
              </p>
              <Progress value={percent} aria-label={`${group.name}: ${programme.held} of ${programme.total} competencies signed off`} />
            </div>
          )}
        </div>
        {programme?.certificate && (
          <p className="mx-3 mb-3 flex flex-wrap sm:mx-4 sm:mb-4 items-center gap-x-2 gap-y-1 rounded-lg border border-emerald-500/40 bg-emerald-500/10 px-3 py-2 text-sm text-emerald-100">
            <Award className="h-4 w-4 shrink-0 text-emerald-300" aria-hidden="true" />
            Certificate issued <time dateTime={programme.certificate.certificate.issuedAt}>{formatDate(programme.certificate.certificate.issuedAt)}</time>:
            <Link href={certificateHref(programme.certificate)} className={linkClass}>
              {programme.certificate.certificate.code}
            </Link>
          </p>
        )}
        <CollapsibleContent className="space-y-3 border-t border-white/10 p-3 sm:space-y-4 sm:p-4">
          {group.modules.length === 0 ? (
            <p className="text-slate-300">This programme has no modules yet.</p>
          ) : (
            group.modules.map((m) => <ModuleCard key={m.moduleId} module={m} context={context} />)
          )}
        </CollapsibleContent>
      </section>
    </Collapsible>
  )
}

/** Where focus goes after a revocation: back to the Revoke button if it is still there (a cancel), else to the result. */
const revokeButtonId = (moduleId: string, index: number) => `revoke-${moduleId}-${index}`

function ModuleCard({ module: m, context }: { module: ModuleCompetencies; context: SignOffContext }) {
  const titleId = useId()
  const signOff = useSignOff(context.userId)
  const revoke = useRevokeSignOff(context.userId)
  const [signOffError, setSignOffError] = useState<string>()
  const [revoking, setRevoking] = useState<ModuleCompetency | null>(null)
  const [revokeError, setRevokeError] = useState<string>()
  const [result, setResult] = useState<ReactNode>(null)
  // The result is where focus goes once the control that was used is gone (the submit button of a form with nothing left to sign off, a Revoke button).
  const resultRef = useRef<HTMLDivElement>(null)
  // The competency whose Revoke button opened the dialog, to return to when it closes.
  const revokeFocus = useRef<number | null>(null)

  const unsigned = unsignedIndexes(m)
  const blocked = context.blocked ?? (m.evidence === null ? `No verified pass yet: ${context.learnerName} needs a verified, passed session of this module before it can be signed off.` : null)

  const submitSignOff = (values: Parameters<typeof signOffInput>[1]) => {
    setSignOffError(undefined)
    setResult(null)
    const input = signOffInput(m.moduleId, values)
    signOff.mutate(input, {
      onSuccess: ({ certificate }) => {
        setResult(<SignOffResultMessage count={input.competencies.length} certificate={certificate} />)
        // After the render that follows the refetch: the form may have been replaced.
        requestAnimationFrame(() => {
          if (!document.activeElement || document.activeElement === document.body) resultRef.current?.focus()
        })
      },
      onError: (error) => setSignOffError(formErrors(error, {}).form),
    })
  }

  const submitRevoke = (note: string) => {
    if (!revoking) return
    setRevokeError(undefined)
    const competency = revoking
    revoke.mutate(
      { moduleId: m.moduleId, competencies: [competency.index], note },
      {
        onSuccess: ({ certificate }) => {
          setResult(<RevokeResultMessage objective={competency.objective} certificate={certificate} />)
          setRevoking(null)
        },
        onError: (error) => setRevokeError(formErrors(error, {}).form),
      },
    )
  }

  // A signed-off competency reads the same in the form and out of it; its Revoke button opens the module's one dialog.
  const signedRow = (c: ModuleCompetency) =>
    c.signOff && (
      <SignedRow
        key={c.index}
        competency={c}
        buttonId={revokeButtonId(m.moduleId, c.index)}
        onRevoke={() => {
          revokeFocus.current = c.index
          setRevokeError(undefined)
          setRevoking(c)
        }}
      />
    )

  const held = m.competencies.length - unsigned.length

  return (
    // A module nothing has happened in yet is closed: it is the bulk of a programme, and there is nothing to sign off in it.
    <Collapsible defaultOpen={moduleBegun(m)} asChild>
      <article aria-labelledby={titleId} className="rounded-lg border border-white/10 bg-slate-950/40 p-3 sm:p-4" data-module={m.moduleId}>
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
          <h4 id={titleId} className="min-w-0 font-semibold text-white">
            <CollapsibleTrigger className="group -mx-1 flex items-start gap-1.5 rounded px-1 text-left hover:text-amber-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400">
              <ChevronRight className="mt-0.5 h-4 w-4 shrink-0 text-slate-300 transition-transform group-data-[state=open]:rotate-90" aria-hidden="true" />
              {m.title}
            </CollapsibleTrigger>
          </h4>
          <p className="text-xs tabular-nums text-slate-300">
            {held} of {plural(m.competencies.length, 'competency', 'competencies')} signed off
          </p>
        </div>
        <Evidence module={m} userId={context.userId} />

        <CollapsibleContent>
          {m.competencies.length === 0 ? (
            <p className="mt-3 text-sm text-slate-300">This module lists no competencies.</p>
          ) : unsigned.length > 0 && !blocked ? (
            <SignOffForm
              key={unsigned.join(',')}
              module={m}
              unsigned={unsigned}
              signedRow={signedRow}
              pending={signOff.isPending}
              serverError={signOffError}
              onSubmit={submitSignOff}
            />
          ) : (
            <>
              <ul className="mt-3 divide-y divide-white/10" aria-label={`Competencies of ${m.title}`}>
                {m.competencies.map((c) => signedRow(c) || <UnsignedRow key={c.index} competency={c} />)}
              </ul>
              {unsigned.length > 0 && blocked && (
                <div className="mt-3 flex flex-wrap items-center gap-3 rounded-md border border-white/10 bg-slate-900/70 px-3 py-2">
                  <p className="min-w-0 flex-1 basis-60 text-sm text-slate-200" data-testid="sign-off-blocked">
                    {blocked}
                  </p>
                  <Button size="sm" disabled>
                    Sign off
                  </Button>
                </div>
              )}
            </>
          )}
        </CollapsibleContent>

        <div ref={resultRef} tabIndex={-1} role="status" data-testid="sign-off-result" className={cn('focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400', result && 'mt-3 rounded-md border border-emerald-500/40 bg-emerald-500/10 px-3 py-2 text-sm text-emerald-100')}>
          {result}
        </div>

        <RevokeDialog
          competency={revoking}
          moduleTitle={m.title}
          pending={revoke.isPending}
          error={revokeError}
          onSubmit={submitRevoke}
          onOpenChange={(open) => !open && setRevoking(null)}
          onCloseAutoFocus={(event) => {
            // Radix would return focus to a trigger; the dialog has none, and after a revocation the button is gone.
            event.preventDefault()
            const button = revokeFocus.current === null ? null : document.getElementById(revokeButtonId(m.moduleId, revokeFocus.current))
            ;(button ?? resultRef.current)?.focus()
          }}
        />
      </article>
    </Collapsible>
  )
}

function Evidence({ module: m, userId }: { module: ModuleCompetencies; userId: string }) {
  if (!m.evidence) return <p className="mt-1 text-sm text-slate-300">No verified pass yet</p>
  return (
    <p className="mt-1 flex flex-wrap items-center gap-x-1.5 text-sm text-slate-300">
      <ShieldCheck className="h-4 w-4 shrink-0 text-emerald-400" aria-hidden="true" />
      Verified pass: <span className="font-semibold tabular-nums text-white">{formatScore(m.evidence.safetyScore)}</span> on{' '}
      <time dateTime={m.evidence.endedAt}>{formatDate(m.evidence.endedAt)}</time> ·
      <Link href={reviewHref(userId, m.evidence.sessionId)} className={linkClass}>
        Review the session<span className="sr-only"> that passed {m.title}</span>
      </Link>
    </p>
  )
}

function SignedRow({ competency: c, buttonId, onRevoke }: { competency: ModuleCompetency; buttonId: string; onRevoke: () => void }) {
  const s = c.signOff
  if (!s) return null
  return (
    <li className="flex flex-wrap items-start gap-x-3 gap-y-2 py-2.5" data-competency={c.index}>
      <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-emerald-400" aria-hidden="true" />
      <div className="min-w-0 flex-1 basis-56">
        <p className="text-sm text-slate-100">{c.objective}</p>
        <p className="mt-0.5 text-xs text-slate-300">
          Signed off by {s.signedBy.name} · <time dateTime={s.signedAt}>{formatDateTime(s.signedAt)}</time>
          {s.practical && <span className="ml-1.5 rounded bg-sky-500/15 px-1.5 py-0.5 font-semibold text-sky-200">Checked in practice</span>}
        </p>
        {s.note && <p className="mt-1 break-words text-xs text-slate-300">Note: {s.note}</p>}
      </div>
      <Button id={buttonId} variant="outline" size="sm" className="ml-8 sm:ml-0" aria-label={`Revoke the sign-off of “${c.objective}”`} onClick={onRevoke}>
        Revoke
      </Button>
    </li>
  )
}

function UnsignedRow({ competency: c }: { competency: ModuleCompetency }) {
  return (
    <li className="flex items-start gap-3 py-2.5" data-competency={c.index}>
      <Circle className="mt-0.5 h-5 w-5 shrink-0 text-slate-500" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="text-sm text-slate-100">{c.objective}</p>
        <p className="mt-0.5 text-xs text-slate-400">Not signed off</p>
      </div>
    </li>
  )
}

/**
 * The module's competencies with a checkbox for each one not yet signed off
 * (all checked to begin with), the practical check and its note. Keyed by
 * what is left to sign off, so that it starts afresh once a sign-off lands.
 */
function SignOffForm({
  module: m,
  unsigned,
  signedRow,
  pending,
  serverError,
  onSubmit,
}: {
  module: ModuleCompetencies
  unsigned: number[]
  signedRow: (c: ModuleCompetency) => ReactNode
  pending: boolean
  serverError: string | undefined
  onSubmit: (values: Parameters<typeof signOffInput>[1]) => void
}) {
  const id = useId()
  const {
    control,
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(signOffFormSchema), defaultValues: signOffFormValues(unsigned) })
  const practical = useWatch({ control, name: 'practical' })
  const chosen = useWatch({ control, name: 'competencies' }).length
  const listError = errors.competencies?.message ?? errors.competencies?.root?.message

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} aria-label={`Sign off ${m.title}`} className="mt-3 space-y-4">
      <fieldset aria-describedby={listError ? `${id}-list-error` : undefined}>
        <legend className="sr-only">Competencies of {m.title}: choose the ones to sign off</legend>
        <ul className="divide-y divide-white/10">
          {m.competencies.map(
            (c) =>
              signedRow(c) || (
                <li key={c.index} className="flex items-start gap-3 py-2.5" data-competency={c.index}>
                  <Controller
                    control={control}
                    name="competencies"
                    render={({ field }) => (
                      <Checkbox
                        id={`${id}-c${c.index}`}
                        className="mt-0.5"
                        checked={field.value.includes(c.index)}
                        onCheckedChange={(on) => field.onChange(on === true ? [...field.value, c.index] : field.value.filter((i) => i !== c.index))}
                      />
                    )}
                  />
                  <Label htmlFor={`${id}-c${c.index}`} className="min-w-0 flex-1 cursor-pointer font-normal text-slate-100">
                    {c.objective}
                    <span className="mt-0.5 block text-xs text-slate-400">Not signed off</span>
                  </Label>
                </li>
              ),
          )}
        </ul>
        {listError && (
          <p id={`${id}-list-error`} className="text-sm text-red-300">
            {listError}
          </p>
        )}
      </fieldset>

      <div className="flex items-start gap-3">
        <Controller control={control} name="practical" render={({ field }) => <Checkbox id={`${id}-practical`} className="mt-0.5" checked={field.value} onCheckedChange={(on) => field.onChange(on === true)} />} />
        <Label htmlFor={`${id}-practical`} className="cursor-pointer">
          Checked in practice on the shop floor
        </Label>
      </div>

      <FormField
        label={practical ? 'Note (required with a practical check)' : 'Note (optional)'}
        hint="Kept with the sign-off in the history. Required when you checked in practice: say what you checked."
        error={errors.note?.message}
        name="note"
      >
        {(p) => <Textarea {...p} {...register('note')} rows={2} className="min-h-16" />}
      </FormField>

      <FormAlert error={serverError} fieldErrors={[listError, errors.note?.message]} />
      <Button type="submit" disabled={pending}>
        {pending ? 'Signing off…' : chosen === unsigned.length && chosen > 1 ? `Sign off all ${chosen} competencies` : `Sign off ${plural(chosen, 'competency', 'competencies')}`}
      </Button>
    </form>
  )
}

function SignOffResultMessage({ count, certificate }: { count: number; certificate: StoredCertificate | null }) {
  return (
    <>
      <p>Signed off {plural(count, 'competency', 'competencies')}.</p>
      {certificate && (
        <p className="mt-1 flex flex-wrap items-center gap-x-1.5">
          <Award className="h-4 w-4 shrink-0 text-emerald-300" aria-hidden="true" />
          <span>
            This completed the {certificate.certificate.programme}: certificate issued,{' '}
            <Link href={certificateHref(certificate)} className={linkClass}>
              {certificate.certificate.code}
            </Link>
            .
          </span>
        </p>
      )}
    </>
  )
}

function RevokeResultMessage({ objective, certificate }: { objective: string; certificate: StoredCertificate | null }) {
  return (
    <>
      <p>Revoked the sign-off of “{objective}”.</p>
      {certificate && (
        <p className="mt-1">
          The {certificate.certificate.programme} certificate{' '}
          <Link href={certificateHref(certificate)} className={linkClass}>
            {certificate.certificate.code}
          </Link>{' '}
          was revoked with it.
        </p>
      )}
    </>
  )
}
