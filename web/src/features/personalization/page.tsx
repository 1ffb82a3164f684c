import { useState } from 'react'
import { Link } from 'wouter'
import { CheckCircle2, ChevronLeft, ChevronRight } from 'lucide-react'
import { PageShell } from '@/components/page-shell'
import { useHeadingTag } from '@/components/heading'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Progress } from '@/components/ui/progress'
import { profileOf, usePersonalization, useSavePersonalization, type PersonalizationProfile } from '@/api/personalization'
import { CheckboxGroup, RadioCards, ScaleField } from './components/choice-fields'
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
  sessionLengths,
  stepTitles,
  toggleOption,
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
  const [profile, setProfile] = useState<PersonalizationProfile>(initial)
  const [step, setStep] = useState(1)
  const [done, setDone] = useState(false)
  const save = useSavePersonalization()
  const title = useHeadingTag()

  const set = <K extends keyof PersonalizationProfile>(key: K, value: PersonalizationProfile[K]) => setProfile((p) => ({ ...p, [key]: value }))
  const toggle = (key: 'visualAssistance' | 'audioAssistance' | 'motorAssistance', order: Option[]) => (value: string, on: boolean) =>
    setProfile((p) => ({ ...p, [key]: toggleOption(p[key], value, on, order) }))

  const next = () => {
    if (step < WIZARD_STEPS) {
      setStep(clampStep(step + 1))
      return
    }
    save.mutate(profile, { onSuccess: () => setDone(true) })
  }

  if (done) {
    return (
      <Card className="mt-8 max-w-3xl">
        <CardHeader>
          <CheckCircle2 className="h-10 w-10 text-emerald-400" aria-hidden="true" />
          <CardTitle as={title} className="text-2xl">
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
        <p className="text-sm font-medium text-amber-400">
          Step {step} of {WIZARD_STEPS}
        </p>
        <CardTitle as={title}>{stepTitles[step - 1]}</CardTitle>
        <Progress value={(step / WIZARD_STEPS) * 100} aria-label={`Wizard progress: step ${step} of ${WIZARD_STEPS}`} className="mt-2" />
      </CardHeader>
      <CardContent className="space-y-6">
        {step === 1 && (
          <>
            <RadioCards legend="Experience level" name="experienceLevel" options={experienceLevels} value={profile.experienceLevel} onChange={(v) => set('experienceLevel', v)} columns={4} />
            <RadioCards legend="Primary trade" name="primaryTrade" options={primaryTrades} value={profile.primaryTrade} onChange={(v) => set('primaryTrade', v)} columns={3} />
          </>
        )}
        {step === 2 && (
          <>
            <RadioCards legend="Learning style" name="learningStyle" options={learningStyles} value={profile.learningStyle} onChange={(v) => set('learningStyle', v)} />
            <RadioCards
              legend="Preferred session length"
              name="preferredSessionLength"
              options={sessionLengths}
              value={profile.preferredSessionLength}
              onChange={(v) => set('preferredSessionLength', v)}
              columns={4}
            />
          </>
        )}
        {step === 3 && (
          <>
            <ScaleField label="XR comfort level" value={profile.xrComfortLevel} onChange={(v) => set('xrComfortLevel', v)} low="1: new to headsets" high="10: hours in VR are fine" />
            <RadioCards legend="Motion sensitivity" name="motionSensitivity" options={motionSensitivities} value={profile.motionSensitivity} onChange={(v) => set('motionSensitivity', v)} columns={3} />
          </>
        )}
        {step === 4 && (
          <>
            <RadioCards
              legend="Difficulty progression"
              name="difficultyProgression"
              options={difficultyProgressions}
              value={profile.difficultyProgression}
              onChange={(v) => set('difficultyProgression', v)}
              columns={3}
            />
            <ScaleField label="Safety emphasis" value={profile.safetyEmphasis} onChange={(v) => set('safetyEmphasis', v)} low="1: essentials only" high="10: every hazard explained" />
            <RadioCards legend="Feedback frequency" name="feedbackFrequency" options={feedbackFrequencies} value={profile.feedbackFrequency} onChange={(v) => set('feedbackFrequency', v)} columns={3} />
          </>
        )}
        {step === 5 && (
          <CheckboxGroup legend="Visual assistance" options={visualAssistanceOptions} values={profile.visualAssistance} onToggle={toggle('visualAssistance', visualAssistanceOptions)} />
        )}
        {step === 6 && (
          <>
            <CheckboxGroup legend="Audio assistance" options={audioAssistanceOptions} values={profile.audioAssistance} onToggle={toggle('audioAssistance', audioAssistanceOptions)} />
            <CheckboxGroup legend="Motor assistance" options={motorAssistanceOptions} values={profile.motorAssistance} onToggle={toggle('motorAssistance', motorAssistanceOptions)} />
          </>
        )}
        {step === 7 && (
          <>
            <RadioCards legend="Colour scheme" name="colorScheme" options={colorSchemeOptions} value={profile.colorScheme} onChange={(v) => set('colorScheme', v)} />
            <RadioCards legend="Font size" name="fontSize" options={fontSizeOptions} value={profile.fontSize} onChange={(v) => set('fontSize', v)} columns={3} />
            <RadioCards legend="Interface complexity" name="uiComplexity" options={uiComplexityOptions} value={profile.uiComplexity} onChange={(v) => set('uiComplexity', v)} columns={3} />
          </>
        )}
        <div className="flex items-center justify-between border-t border-white/10 pt-4">
          <Button variant="outline" disabled={step === 1} onClick={() => setStep(clampStep(step - 1))}>
            <ChevronLeft aria-hidden="true" />
            Previous
          </Button>
          <Button onClick={next} disabled={save.isPending}>
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
