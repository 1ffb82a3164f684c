import { useCallback, useId, useState } from 'react'
import type { FormErrors } from '@/lib/form-errors'

/**
 * A small form's values and errors. Editing a field clears its complaint;
 * failing puts focus on the first field in error, whose aria-describedby
 * reads the problem out.
 */
export function useFormState<T extends Record<string, string>>(initial: T) {
  const [values, setValues] = useState<T>(initial)
  const [errors, setErrors] = useState<FormErrors<keyof T & string>>({ fields: {} })
  // The form is found by id when focus must move, not held in a ref the render would read.
  const formId = useId()

  const set = useCallback((field: keyof T & string, value: string) => {
    setValues((v) => ({ ...v, [field]: value }))
    setErrors((e) => (e.fields[field] ? { ...e, fields: { ...e.fields, [field]: undefined } } : e))
  }, [])

  const fail = useCallback((found: FormErrors<keyof T & string>, order: readonly (keyof T & string)[]) => {
    setErrors(found)
    const first = order.find((f) => found.fields[f])
    if (first) {
      // After the render that marks the field invalid and links its message.
      requestAnimationFrame(() => document.getElementById(formId)?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus())
    }
  }, [formId])

  const reset = useCallback((next: T) => {
    setValues(next)
    setErrors({ fields: {} })
  }, [])

  return { values, set, errors, setErrors, fail, reset, formId }
}
