import { useController, type Control } from 'react-hook-form'
import type { PersonalizationProfile } from '@/api/personalization'
import { toggleOption, type Option } from '../lib/wizard'
import { CheckboxGroup, RadioCards, ScaleField } from './choice-fields'

/*
 * The wizard's controls tied to its form: each reads and writes one field of
 * the profile, and a single choice shows that field's error.
 */

type Profile = PersonalizationProfile
type FieldsOf<V> = { [K in keyof Profile]: Profile[K] extends V ? K : never }[keyof Profile]

export function ProfileChoice<N extends FieldsOf<string> | FieldsOf<number>>({
  control,
  name,
  ...props
}: {
  control: Control<Profile>
  name: N
  legend: string
  options: Option<Profile[N]>[]
  columns?: 2 | 3 | 4
}) {
  const { field, fieldState } = useController({ control, name })
  return <RadioCards {...props} name={name} value={field.value} onChange={field.onChange} inputRef={field.ref} error={fieldState.error?.message} />
}

export function ProfileScale({ control, name, ...props }: { control: Control<Profile>; name: FieldsOf<number>; label: string; low: string; high: string }) {
  const { field } = useController({ control, name })
  return <ScaleField {...props} value={field.value} onChange={field.onChange} />
}

export function ProfileOptions({ control, name, legend, options }: { control: Control<Profile>; name: FieldsOf<string[]>; legend: string; options: Option[] }) {
  const { field } = useController({ control, name })
  return <CheckboxGroup legend={legend} options={options} values={field.value} onToggle={(value, on) => field.onChange(toggleOption(field.value, value, on, options))} />
}
