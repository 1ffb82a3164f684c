import { useId, useState } from 'react'
import { Checkbox } from '@/components/ui/checkbox'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import type { FieldControlProps } from '@/components/ui/form-field'

/** A password box with a "Show password" switch: seeing what one typed beats retyping it in a second box. */
export function PasswordInput({
  control,
  value,
  onChange,
  autoComplete,
  name,
}: {
  control: FieldControlProps
  value: string
  onChange: (value: string) => void
  autoComplete: 'current-password' | 'new-password'
  name: string
}) {
  const [shown, setShown] = useState(false)
  const toggleId = useId()
  return (
    <>
      <Input
        {...control}
        name={name}
        type={shown ? 'text' : 'password'}
        autoComplete={autoComplete}
        autoCapitalize="none"
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <div className="flex items-center gap-2">
        <Checkbox id={toggleId} checked={shown} onCheckedChange={(on) => setShown(on === true)} />
        <Label htmlFor={toggleId} className="text-xs font-normal text-slate-300">
          Show password
        </Label>
      </div>
    </>
  )
}
