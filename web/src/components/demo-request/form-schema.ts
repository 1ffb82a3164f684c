import { z } from 'zod'
import type { DemoRequestField } from '@/api/demo-requests'
import { fieldMessage } from './field-errors'

/*
 * The server's checks (internal/outreach DemoRequestInput.Validate), run
 * before sending so an obvious mistake needs no round trip. Each field gets
 * the first problem the server would name, worded as the server's 400 reads
 * on the form. The server stays the judge: a problem only it finds (an
 * address net/mail rejects, say) still comes back as a 400 and lands on its
 * field.
 */

// Characters, not UTF-16 units: the server counts runes.
const length = (s: string) => [...s].length

function hasControl(s: string, multiline: boolean): boolean {
  for (const ch of s) {
    if (multiline && (ch === '\n' || ch === '\r' || ch === '\t')) continue
    const code = ch.codePointAt(0) ?? 0
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

function textProblem(value: string, least: number, most: number, multiline: boolean): string | undefined {
  const n = length(value)
  if (n === 0 && least > 0) return 'is required'
  if (n < least) return `must be at least ${least} characters`
  if (n > most) return `must be at most ${most} characters`
  if (hasControl(value, multiline)) return 'must not contain control characters'
  return undefined
}

// Only the shape the server checks by hand; anything subtler is left to it.
function emailProblem(value: string): string | undefined {
  if (value === '') return 'is required'
  if (length(value) > 254) return 'must be at most 254 characters'
  const at = value.lastIndexOf('@')
  const domain = value.slice(at + 1)
  if (at <= 0 || !domain.includes('.') || domain.startsWith('.') || domain.endsWith('.')) return 'must be an address like name@example.com'
  return undefined
}

// The server trims every field before checking it.
const checked = (field: DemoRequestField, problemOf: (value: string) => string | undefined) =>
  z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const problem = problemOf(value)
      if (problem) ctx.addIssue({ code: 'custom', message: fieldMessage(field, problem) })
    })

export const demoRequestFormSchema = z.object({
  name: checked('name', (v) => textProblem(v, 1, 100, false)),
  email: checked('email', emailProblem),
  organisation: checked('organisation', (v) => textProblem(v, 1, 150, false)),
  message: checked('message', (v) => textProblem(v, 10, 2000, true)),
  interest: checked('interest', (v) => textProblem(v, 0, 60, false)),
})
