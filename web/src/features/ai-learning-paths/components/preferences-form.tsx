import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Input, Textarea } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import {
  difficultyProgressionOptions,
  industryExperienceRange,
  joinList,
  learningStyleOptions,
  sessionDurationRange,
  splitList,
  xrComfortOptions,
  type LearningPreferences,
} from '../lib/forms'
import { SelectField, SliderField } from './fields'

/** The Learning Preferences tab. */
export function PreferencesForm({
  initial,
  saving,
  error,
  onSave,
}: {
  initial: LearningPreferences
  saving: boolean
  error: string | null
  onSave: (prefs: LearningPreferences) => void
}) {
  const [prefs, setPrefs] = useState(initial)
  const [focusText, setFocusText] = useState(joinList(initial.focusAreas))
  const [certText, setCertText] = useState(joinList(initial.certificationGoals))
  const set = <K extends keyof LearningPreferences>(key: K, value: LearningPreferences[K]) => setPrefs((p) => ({ ...p, [key]: value }))

  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSave({ ...prefs, focusAreas: splitList(focusText), certificationGoals: splitList(certText) })
  }

  return (
    <form onSubmit={submit} className="grid gap-6 md:grid-cols-2" aria-label="Learning preferences">
      <SelectField label="Preferred learning style" value={prefs.preferredLearningStyle} options={learningStyleOptions} onChange={(v) => set('preferredLearningStyle', v)} />
      <SelectField label="XR comfort level" value={prefs.xrComfortLevel} options={xrComfortOptions} onChange={(v) => set('xrComfortLevel', v)} />
      <SliderField
        label="Session duration"
        value={prefs.sessionDuration}
        display={`${prefs.sessionDuration} minutes`}
        range={sessionDurationRange}
        onChange={(v) => set('sessionDuration', v)}
      />
      <SliderField
        label="Industry experience"
        value={prefs.industryExperience}
        display={`${prefs.industryExperience} ${prefs.industryExperience === 1 ? 'year' : 'years'}`}
        range={industryExperienceRange}
        onChange={(v) => set('industryExperience', v)}
      />
      <SelectField label="Difficulty progression" value={prefs.difficultyProgression} options={difficultyProgressionOptions} onChange={(v) => set('difficultyProgression', v)} />
      <div className="space-y-2">
        <Label htmlFor="focus-areas">Focus areas</Label>
        <Input id="focus-areas" value={focusText} onChange={(e) => setFocusText(e.target.value)} placeholder="e.g. safety, troubleshooting, conduit" aria-describedby="focus-hint" />
        <p id="focus-hint" className="text-xs text-slate-300">
          Separate with commas.
        </p>
      </div>
      <div className="space-y-2">
        <Label htmlFor="certification-goals">Certification goals</Label>
        <Input id="certification-goals" value={certText} onChange={(e) => setCertText(e.target.value)} placeholder="e.g. OSHA 10, NFPA 70E" aria-describedby="cert-hint" />
        <p id="cert-hint" className="text-xs text-slate-300">
          Separate with commas.
        </p>
      </div>
      <div className="space-y-2 md:col-span-2">
        <Label htmlFor="learning-goals">Learning goals</Label>
        <Textarea id="learning-goals" value={prefs.learningGoals} onChange={(e) => set('learningGoals', e.target.value)} maxLength={2000} placeholder="What do you want to be able to do?" />
      </div>
      <div className="flex items-center gap-4 md:col-span-2">
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : 'Save Preferences'}
        </Button>
        {error ? (
          <p role="alert" className="text-sm text-red-400">
            {error}
          </p>
        ) : null}
      </div>
    </form>
  )
}
