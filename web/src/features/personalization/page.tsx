import { useEffect, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Link } from 'wouter'
import { CheckCircle2, ChevronLeft, ChevronRight } from 'lucide-react'
import { PageShell } from '@/components/page-shell'
import { focusedHeadingClass, useHeadingTag } from '@/components/heading'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Progress } from '@/components/ui/progress'
import { profileOf, usePersonalization, useSavePersonalization, type PersonalizationProfile } from '@/api/personalization'
import { ProfileChoice, ProfileOptions, ProfileScale } from './components/profile-fields'
import {
  WIZARD_STEPS,
  audioAssistanceOptions,
  clampStep,
  colorSchemeOptions,
  defaultProfile,
  difficultyProgressions,
  experienceLevels,
  feedbackFrequencies,
  fontSizeOptions,
  learningStyles,
  motionSensitivities,
  motorAssistanceOptions,
  primaryTrades,
  profileFormSchema,
  sessionLengths,
  stepFields,
  stepTitles,
  uiComplexityOptions,
  visualAssistanceOptions,
  type Option,
} from './lib/wizard'

/** The personalization page (spec 001 §2). */
export default function PersonalizationPage() {
  return (
    <PageShell title="Personalize Your Training">
      <PersonalizationWizard />
    </PageShell>
  )
}

/** Personalization wizard (spec 001 §2, §3, §4): seven steps, then a confirmation screen. Exported for /advanced. */
export function PersonalizationWizard() {
  const saved = usePersonalization({ select: profileOf })
  return (
    <>
      <p className="mt-3 max-w-3xl text-slate-300">
        Tell us how you learn and what you need. Your choices shape your XR sessions and how the whole site looks and behaves.
      </p>
      {saved.isPending ? (
        <p className="mt-8 text-slate-300" role="status">
          Loading your preferences...
        </p>
      ) : (
        <Wizard initial={saved.data ?? defaultProfile} />
      )}
    </>
  )
}

function labelOf<T extends string | number>(options: Option<T>[], value: T): string {
  return options.find((o) => o.value === value)?.label ?? String(value)
}

function listLabels(options: Option[], values: readonly string[]): string {
  return values.length ? values.map((v) => labelOf(options, v)).join(', ') : 'None'
}

function Wizard({ initial }: { initial: PersonalizationProfile }) {
  const [step, setStep] = useState(1)
  const [done, setDone] = useState(false)
  const save = useSavePersonalization()
  const title = useHeadingTag()
  const heading = useRef<HTMLHeadingElement>(null)
  const firstScreen = useRef(true)

  // Next, Previous, the save and Modify Preferences each replace the screen (and may take away or
  // disable the button pressed): focus moves to the new screen's heading, which names the step
  // ("Step 2 of 7: Learning Style") or the confirmation, so screen-reader users hear where they are.
  useEffect(() => {
    if (firstScreen.current) {
      firstScreen.current = false
      return
    }
    heading.current?.focus()
  }, [step, done])
  // onChange: choosing an option clears the complaint about its group at once.
  const { control, trigger, handleSubmit, getValues } = useForm({ resolver: zodResolver(profileFormSchema), defaultValues: initial, mode: 'onChange' })

  const next = async () => {
    if (step < WIZARD_STEPS) {
      if (await trigger(stepFields[step - 1], { shouldFocus: true })) setStep(clampStep(step + 1))
      return
    }
    await handleSubmit(
      (profile) => save.mutate(profile, { onSuccess: () => setDone(true) }),
      // Every earlier step was checked on its Next, but should one still be wrong, show it.
      (errors) => setStep(clampStep(stepFields.findIndex((fields) => fields.some((f) => errors[f])) + 1)),
    )()
  }

  if (done) {
    const profile = getValues()
    return (
      <Card className="mt-8 max-w-3xl">
        <CardHeader>
          <CheckCircle2 className="h-10 w-10 text-emerald-400" aria-hidden="true" />
          <CardTitle as={title} ref={heading} tabIndex={-1} className={`text-2xl ${focusedHeadingClass}`}>
            Your training is personalized
          </CardTitle>
          <CardDescription>Your preferences are saved and already apply across the site.</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
            <Summary term="Experience" value={labelOf(experienceLevels, profile.experienceLevel)} />
            <Summary term="Primary trade" value={profile.primaryTrade ? labelOf(primaryTrades, profile.primaryTrade) : 'Not chosen'} />
            <Summary term="Learning style" value={labelOf(learningStyles, profile.learningStyle)} />
            <Summary term="Session length" value={labelOf(sessionLengths, profile.preferredSessionLength)} />
            <Summary term="XR comfort" value={`${profile.xrComfortLevel} / 10`} />
            <Summary term="Motion sensitivity" value={labelOf(motionSensitivities, profile.motionSensitivity)} />
            <Summary term="Difficulty progression" value={labelOf(difficultyProgressions, profile.difficultyProgression)} />
            <Summary term="Safety emphasis" value={`${profile.safetyEmphasis} / 10`} />
            <Summary term="Feedback" value={labelOf(feedbackFrequencies, profile.feedbackFrequency)} />
            <Summary term="Visual assistance" value={listLabels(visualAssistanceOptions, profile.visualAssistance)} />
            <Summary term="Audio assistance" value={listLabels(audioAssistanceOptions, profile.audioAssistance)} />
            <Summary term="Motor assistance" value={listLabels(motorAssistanceOptions, profile.motorAssistance)} />
            <Summary term="Colour scheme" value={labelOf(colorSchemeOptions, profile.colorScheme)} />
            <Summary term="Font size" value={labelOf(fontSizeOptions, profile.fontSize)} />
            <Summary term="Interface" value={labelOf(uiComplexityOptions, profile.uiComplexity)} />
          </dl>
          <div className="mt-6 flex flex-wrap gap-3">
            <Button asChild size="lg">
              <Link href="/xr-training">Start Personalized Training</Link>
            </Button>
            <Button
              size="lg"
              variant="outline"
              onClick={() => {
                setDone(false)
                setStep(1)
              }}
            >
              Modify Preferences
            </Button>
          </div>
        </CardContent>
      </Card>
    )
  }

  return (
    <Card className="mt-8 max-w-3xl">
      <CardHeader>
        {/* The step number is part of the heading, so the heading that takes focus says it. */}
        <CardTitle as={title} ref={heading} tabIndex={-1} className={focusedHeadingClass}>
          <span className="mb-1.5 block text-sm font-medium leading-normal text-amber-400">
            Step {step} of {WIZARD_STEPS}
          </span>
          <span className="sr-only">:</span> {stepTitles[step - 1]}
        </CardTitle>
        <Progress value={(step / WIZARD_STEPS) * 100} aria-label={`Wizard progress: step ${step} of ${WIZARD_STEPS}`} className="mt-2" />
      </CardHeader>
      <CardContent className="space-y-6">
        {step === 1 && (
          <>
            <ProfileChoice control={control} name="experienceLevel" legend="Experience level" options={experienceLevels} columns={4} />
            <ProfileChoice control={control} name="primaryTrade" legend="Primary trade" options={primaryTrades} columns={3} />
          </>
        )}
        {step === 2 && (
          <>
            <ProfileChoice control={control} name="learningStyle" legend="Learning style" options={learningStyles} />
            <ProfileChoice control={control} name="preferredSessionLength" legend="Preferred session length" options={sessionLengths} columns={4} />
          </>
        )}
        {step === 3 && (
          <>
            <ProfileScale control={control} name="xrComfortLevel" label="XR comfort level" low="1: new to headsets" high="10: hours in VR are fine" />
            <ProfileChoice control={control} name="motionSensitivity" legend="Motion sensitivity" options={motionSensitivities} columns={3} />
          </>
        )}
        {step === 4 && (
          <>
            <ProfileChoice control={control} name="difficultyProgression" legend="Difficulty progression" options={difficultyProgressions} columns={3} />
            <ProfileScale control={control} name="safetyEmphasis" label="Safety emphasis" low="1: essentials only" high="10: every hazard explained" />
            <ProfileChoice control={control} name="feedbackFrequency" legend="Feedback frequency" options={feedbackFrequencies} columns={3} />
          </>
        )}
        {step === 5 && <ProfileOptions control={control} name="visualAssistance" legend="Visual assistance" options={visualAssistanceOptions} />}
        {step === 6 && (
          <>
            <ProfileOptions control={control} name="audioAssistance" legend="Audio assistance" options={audioAssistanceOptions} />
            <ProfileOptions control={control} name="motorAssistance" legend="Motor assistance" options={motorAssistanceOptions} />
          </>
        )}
        {step === 7 && (
          <>
            <ProfileChoice control={control} name="colorScheme" legend="Colour scheme" options={colorSchemeOptions} />
            <ProfileChoice control={control} name="fontSize" legend="Font size" options={fontSizeOptions} columns={3} />
            <ProfileChoice control={control} name="uiComplexity" legend="Interface complexity" options={uiComplexityOptions} columns={3} />
          </>
        )}
        <div className="flex items-center justify-between border-t border-white/10 pt-4">
          <Button variant="outline" disabled={step === 1} onClick={() => setStep(clampStep(step - 1))}>
            <ChevronLeft aria-hidden="true" />
            Previous
          </Button>
          {/* Unavailable, not disabled, while saving: focus stays on it, and stays there if the save fails. */}
          <Button onClick={next} unavailable={save.isPending}>
            {step === WIZARD_STEPS && save.isPending ? 'Saving...' : 'Next'}
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
      </CardContent>
    </Card>
  )
}

function Summary({ term, value }: { term: string; value: string }) {
  return (
    <div className="flex justify-between gap-4 border-b border-white/10 py-1">
      <dt className="text-slate-300">{term}</dt>
      <dd className="text-right font-medium text-white">{value}</dd>
    </div>
  )
}
