import { Controller, useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Button } from '@/components/ui/button'
import { assessmentFormSchema, assessmentFormValues, assessmentTypeOptions, overallScoreRange, tradeCategoryOptions, type SkillAssessment } from '../lib/forms'
import { ListField, SelectField, SliderField } from './fields'

/** The Skill Assessment tab. */
export function AssessmentForm({
  initial,
  saving,
  error,
  onSave,
}: {
  initial: SkillAssessment
  saving: boolean
  error: string | null
  onSave: (assessment: SkillAssessment) => void
}) {
  const {
    control,
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(assessmentFormSchema), defaultValues: assessmentFormValues(initial) })

  // The fields the form does not show (skill areas, current levels) go back as they came.
  const save = handleSubmit((values) => onSave({ ...initial, ...values }))

  return (
    <form onSubmit={save} className="grid gap-6 md:grid-cols-2" aria-label="Skill assessment">
      <Controller
        control={control}
        name="tradeCategory"
        render={({ field }) => <SelectField label="Trade category" value={field.value} options={tradeCategoryOptions} onChange={field.onChange} />}
      />
      <Controller
        control={control}
        name="assessmentType"
        render={({ field }) => <SelectField label="Assessment type" value={field.value} options={assessmentTypeOptions} onChange={field.onChange} />}
      />
      <div className="md:col-span-2">
        <Controller
          control={control}
          name="overallScore"
          render={({ field }) => (
            <SliderField label="Overall skill score" value={field.value} display={`${field.value}%`} range={overallScoreRange} onChange={field.onChange} />
          )}
        />
      </div>
      <ListField
        id="strengths"
        label="Strengths"
        hint="Separate with commas."
        placeholder="e.g. reading prints, hand tools"
        error={errors.strengths?.message}
        {...register('strengths')}
      />
      <ListField
        id="improvement-areas"
        label="Improvement areas"
        hint="Separate with commas. These also steer your recommended focus path."
        placeholder="e.g. lockout, arc flash"
        error={errors.improvementAreas?.message}
        {...register('improvementAreas')}
      />
      <div className="flex items-center gap-4 md:col-span-2">
        {/* Unavailable, not disabled, while saving: focus stays on it until the next tab takes it, or here if the save fails. */}
        <Button type="submit" unavailable={saving}>
          {saving ? 'Saving...' : 'Save Assessment'}
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
