import { useId, type ReactNode } from 'react'
import type { UseFormRegisterReturn } from 'react-hook-form'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Slider } from '@/components/ui/slider'

/** A labelled select over fixed options. */
export function SelectField({
  label,
  value,
  options,
  onChange,
}: {
  label: string
  value: string
  options: { value: string; label: string }[]
  onChange: (value: string) => void
}) {
  const id = useId()
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <Select value={value} onValueChange={onChange}>
        <SelectTrigger id={id}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {options.map((o) => (
            <SelectItem key={o.value} value={o.value}>
              {o.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  )
}

/** A labelled slider with its value shown. */
export function SliderField({
  label,
  value,
  display,
  range,
  onChange,
}: {
  label: string
  value: number
  display: ReactNode
  range: { min: number; max: number; step: number }
  onChange: (value: number) => void
}) {
  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between text-sm">
        <span className="font-medium text-slate-200">{label}</span>
        <span className="font-semibold text-white" aria-hidden="true">
          {display}
        </span>
      </div>
      <Slider label={label} min={range.min} max={range.max} step={range.step} value={[value]} onValueChange={([v]) => onChange(v ?? value)} />
    </div>
  )
}

/** A comma-separated list typed as text, with its hint and, once checked, its error. */
export function ListField({
  id,
  label,
  hint,
  placeholder,
  error,
  ...input
}: { id: string; label: string; hint: string; placeholder: string; error?: string } & UseFormRegisterReturn) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        {...input}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
      />
      <p id={`${id}-hint`} className="text-xs text-slate-300">
        {hint}
      </p>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  )
}

/** A field's problem, under it. */
export function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={id} className="text-sm text-red-400">
      {error}
    </p>
  ) : null
}
