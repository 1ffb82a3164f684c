import { demoRequestFields, type DemoRequestField } from '@/api/demo-requests'

/** What a failed submission means for the form. */
export interface SubmissionErrors {
  /** A problem per field, from the server's "field: problem; …" message. */
  fields: Partial<Record<DemoRequestField, string>>
  /** Anything not about one field: a rate limit, a server or network failure. */
  form?: string
}

/**
 * Reads the server's answer out of an apiRequest error ("{status}: {body}",
 * spec 000 §8). A 400 names each bad field as "field: problem", clauses
 * joined by "; " (internal/outreach); each becomes that field's message,
 * starting with a capital. Other answers become one form-level message.
 */
export function submissionErrors(error: unknown): SubmissionErrors {
  const text = error instanceof Error ? error.message : String(error)
  const match = /^(\d{3}): ([\s\S]*)$/.exec(text)
  if (!match) return { fields: {}, form: 'Could not reach the server. Check your connection and try again.' }
  const [, status, body] = match
  let message = body
  try {
    const parsed: unknown = JSON.parse(body)
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') message = parsed.message
  } catch {
    // Not JSON (a proxy's page, say): show the text as it is.
  }
  if (status === '429') return { fields: {}, form: capitalize(message) }
  if (status !== '400') return { fields: {}, form: `Something went wrong on our side (${status}). Please try again.` }

  const fields: SubmissionErrors['fields'] = {}
  const rest: string[] = []
  for (const clause of message.split('; ')) {
    const colon = clause.indexOf(': ')
    const field = clause.slice(0, colon) as DemoRequestField
    if (colon > 0 && demoRequestFields.includes(field)) {
      fields[field] = fieldMessage(field, clause.slice(colon + 2))
    } else {
      rest.push(clause)
    }
  }
  return rest.length ? { fields, form: capitalize(rest.join('; ')) } : { fields }
}

/** A field's problem as the form shows it, e.g. "Email must be an address like name@example.com." */
export function fieldMessage(field: DemoRequestField, problem: string): string {
  return `${capitalize(labels[field])} ${problem}.`
}

const labels: Record<DemoRequestField, string> = {
  name: 'name',
  email: 'email',
  organisation: 'organisation',
  message: 'message',
  interest: 'area of interest',
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}
