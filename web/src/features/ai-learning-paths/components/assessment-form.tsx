import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { assessmentTypeOptions, joinList, overallScoreRange, splitList, tradeCategoryOptions, type SkillAssessment } from '../lib/forms'
import { SelectField, SliderField } from './fields'

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
  const [a, setA] = useState(initial)
  const [strengths, setStrengths] = useState(joinList(initial.strengths))
  const [improvements, setImprovements] = useState(joinList(initial.improvementAreas))
  const set = <K extends keyof SkillAssessment>(key: K, value: SkillAssessment[K]) => setA((p) => ({ ...p, [key]: value }))

  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSave({ ...a, strengths: splitList(strengths), improvementAreas: splitList(improvements) })
  }

  return (
    <form onSubmit={submit} className="grid gap-6 md:grid-cols-2" aria-label="Skill assessment">
      <SelectField label="Trade category" value={a.tradeCategory} options={tradeCategoryOptions} onChange={(v) => set('tradeCategory', v)} />
      <SelectField label="Assessment type" value={a.assessmentType} options={assessmentTypeOptions} onChange={(v) => set('assessmentType', v)} />
      <div className="md:col-span-2">
        <SliderField label="Overall skill score" value={a.overallScore} display={`${a.overallScore}%`} range={overallScoreRange} onChange={(v) => set('overallScore', v)} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="strengths">Strengths</Label>
        <Input id="strengths" value={strengths} onChange={(e) => setStrengths(e.target.value)} placeholder="e.g. reading prints, hand tools" aria-describedby="strengths-hint" />
        <p id="strengths-hint" className="text-xs text-slate-300">
          Separate with commas.
        </p>
      </div>
      <div className="space-y-2">
        <Label htmlFor="improvement-areas">Improvement areas</Label>
        <Input id="improvement-areas" value={improvements} onChange={(e) => setImprovements(e.target.value)} placeholder="e.g. lockout, arc flash" aria-describedby="improvements-hint" />
        <p id="improvements-hint" className="text-xs text-slate-300">
          Separate with commas. These also steer your recommended focus path.
        </p>
      </div>
      <div className="flex items-center gap-4 md:col-span-2">
        <Button type="submit" disabled={saving}>
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
