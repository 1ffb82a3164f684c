import { useId, type Ref } from 'react'
import { Checkbox } from '@/components/ui/checkbox'
import { Label } from '@/components/ui/label'
import { Slider } from '@/components/ui/slider'
import { cn } from '@/lib/utils'
import type { Option } from '../lib/wizard'

/**
 * A single-choice field as a group of radio cards: native radios, so arrow
 * keys move the choice. inputRef gets the first radio, where focus goes when
 * the group is in error.
 */
export function RadioCards<T extends string | number>({
  legend,
  name,
  options,
  value,
  onChange,
  columns = 2,
  error,
  inputRef,
}: {
  legend: string
  name: string
  options: Option<T>[]
  value: T
  onChange: (value: T) => void
  columns?: 2 | 3 | 4
  error?: string
  inputRef?: Ref<HTMLInputElement>
}) {
  const errorId = `${useId()}-error`
  return (
    // A radio group, so the whole choice can be marked invalid (a single radio cannot).
    <fieldset role="radiogroup" className="space-y-2" aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined}>
      <legend className="mb-2 text-sm font-semibold text-slate-200">{legend}</legend>
      <div className={cn('grid gap-2', columns === 2 && 'sm:grid-cols-2', columns === 3 && 'sm:grid-cols-3', columns === 4 && 'sm:grid-cols-2 lg:grid-cols-4')}>
        {options.map((o, i) => {
          const checked = o.value === value
          return (
            <label
              key={String(o.value)}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm focus-within:ring-2 focus-within:ring-amber-400',
                checked ? 'border-amber-500 bg-amber-500/10' : 'border-white/15 bg-slate-900/60 hover:border-white/30',
              )}
            >
              <input
                ref={i === 0 ? inputRef : undefined}
                type="radio"
                name={name}
                value={String(o.value)}
                checked={checked}
                onChange={() => onChange(o.value)}
                className="mt-0.5 h-4 w-4 shrink-0 accent-amber-500"
              />
              <span>
                <span className="block font-medium text-white">{o.label}</span>
                {o.hint ? (
                  <span className="block text-slate-300" data-detail="secondary">
                    {o.hint}
                  </span>
                ) : null}
              </span>
            </label>
          )
        })}
      </div>
      {error ? (
        <p id={errorId} className="text-sm text-red-400">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}

/** A multi-choice field as labelled checkboxes. */
export function CheckboxGroup({
  legend,
  options,
  values,
  onToggle,
}: {
  legend: string
  options: Option[]
  values: readonly string[]
  onToggle: (value: string, on: boolean) => void
}) {
  const base = useId()
  return (
    <fieldset className="space-y-2">
      <legend className="mb-2 text-sm font-semibold text-slate-200">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {options.map((o) => {
          const id = `${base}-${o.value}`
          return (
            <div key={o.value} className="flex items-center gap-3 rounded-lg border border-white/15 bg-slate-900/60 p-3">
              <Checkbox id={id} checked={values.includes(o.value)} onCheckedChange={(c) => onToggle(o.value, c === true)} />
              <Label htmlFor={id} className="cursor-pointer">
                {o.label}
              </Label>
            </div>
          )
        })}
      </div>
    </fieldset>
  )
}

/** A 1–10 scale with its current value shown next to the label. */
export function ScaleField({
  label,
  value,
  onChange,
  low,
  high,
}: {
  label: string
  value: number
  onChange: (value: number) => void
  low: string
  high: string
}) {
  const id = useId()
  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between">
        <span id={id} className="text-sm font-semibold text-slate-200">
          {label}
        </span>
        <span className="rounded bg-slate-800 px-2 py-0.5 text-sm font-semibold text-white" aria-hidden="true">
          {value} / 10
        </span>
      </div>
      <Slider label={label} min={1} max={10} step={1} value={[value]} onValueChange={([v]) => onChange(v ?? value)} />
      <div className="flex justify-between text-xs text-slate-300" data-detail="secondary">
        <span>{low}</span>
        <span>{high}</span>
      </div>
    </div>
  )
}
