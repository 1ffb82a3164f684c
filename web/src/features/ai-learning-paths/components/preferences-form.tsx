import { Controller, useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Button } from '@/components/ui/button'
import { Textarea } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import {
  difficultyProgressionOptions,
  industryExperienceRange,
  MAX_GOALS_LENGTH,
  learningStyleOptions,
  preferencesFormSchema,
  preferencesFormValues,
  sessionDurationRange,
  xrComfortOptions,
  type LearningPreferences,
} from '../lib/forms'
import { FieldError, ListField, SelectField, SliderField } from './fields'

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
  const {
    control,
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(preferencesFormSchema), defaultValues: preferencesFormValues(initial) })

  // The field the form does not show (available time slots) goes back as it came.
  const save = handleSubmit((values) => onSave({ ...initial, ...values }))
  const goalsError = errors.learningGoals?.message

  return (
    <form onSubmit={save} className="grid gap-6 md:grid-cols-2" aria-label="Learning preferences">
      <Controller
        control={control}
        name="preferredLearningStyle"
        render={({ field }) => <SelectField label="Preferred learning style" value={field.value} options={learningStyleOptions} onChange={field.onChange} />}
      />
      <Controller
        control={control}
        name="xrComfortLevel"
        render={({ field }) => <SelectField label="XR comfort level" value={field.value} options={xrComfortOptions} onChange={field.onChange} />}
      />
      <Controller
        control={control}
        name="sessionDuration"
        render={({ field }) => (
          <SliderField label="Session duration" value={field.value} display={`${field.value} minutes`} range={sessionDurationRange} onChange={field.onChange} />
        )}
      />
      <Controller
        control={control}
        name="industryExperience"
        render={({ field }) => (
          <SliderField
            label="Industry experience"
            value={field.value}
            display={`${field.value} ${field.value === 1 ? 'year' : 'years'}`}
            range={industryExperienceRange}
            onChange={field.onChange}
          />
        )}
      />
      <Controller
        control={control}
        name="difficultyProgression"
        render={({ field }) => <SelectField label="Difficulty progression" value={field.value} options={difficultyProgressionOptions} onChange={field.onChange} />}
      />
      <ListField
        id="focus-areas"
        label="Focus areas"
        hint="Separate with commas."
        placeholder="e.g. safety, troubleshooting, conduit"
        error={errors.focusAreas?.message}
        {...register('focusAreas')}
      />
      <ListField
        id="certification-goals"
        label="Certification goals"
        hint="Separate with commas."
        placeholder="e.g. OSHA 10, NFPA 70E"
        error={errors.certificationGoals?.message}
        {...register('certificationGoals')}
      />
      <div className="space-y-2 md:col-span-2">
        <Label htmlFor="learning-goals">Learning goals</Label>
        <Textarea
          id="learning-goals"
          {...register('learningGoals')}
          maxLength={MAX_GOALS_LENGTH}
          placeholder="What do you want to be able to do?"
          aria-invalid={goalsError ? true : undefined}
          aria-describedby={goalsError ? 'learning-goals-error' : undefined}
        />
        <FieldError id="learning-goals-error" error={goalsError} />
      </div>
      <div className="flex items-center gap-4 md:col-span-2">
        {/* Unavailable, not disabled, while saving: focus stays on it until the next tab takes it, or here if the save fails. */}
        <Button type="submit" unavailable={saving}>
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
