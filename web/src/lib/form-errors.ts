import { ApiError } from '@/lib/api'

/** What a failed submission means for a form: a message per field, and one for the form itself. */
export interface FormErrors<F extends string> {
  fields: Partial<Record<F, string>>
  /** Anything not about one field: wrong credentials, a throttle, a conflict, a server or network failure. */
  form?: string
}

/** Capitalizes a sentence's first word, unless it is written as code (cmi5.xml, au[0]), whose case is its name. */
function capitalize(s: string): string {
  return /^[a-z]+(?![\w.[\]/-])/.test(s) ? s.charAt(0).toUpperCase() + s.slice(1) : s
}

function sentence(s: string): string {
  const t = capitalize(s.trim())
  return /[.!?]$/.test(t) ? t : `${t}.`
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The text a 429 shows, counting from Retry-After when the server sent one. */
export function throttleMessage(retryAfterSeconds: number | null): string {
  if (retryAfterSeconds === null) return 'Too many attempts; try again later.'
  return `Too many attempts; try again in ${retryAfterSeconds} ${retryAfterSeconds === 1 ? 'second' : 'seconds'}.`
}

/**
 * Reads a failed request for a form. A 400 names its field at the start of a
 * clause ("password: is one of the most common passwords", or
 * "password must be at least 8 characters"); each such clause goes under
 * that field, worded with the field's label. A clause may itself hold "; "
 * ("email: cannot create an account with this email; sign in instead"), so
 * the message is split only where the next clause starts with a field name.
 * A field labelled '' is a tag only ("inviteToken: this invite link is used
 * up"): its message is the rest of the clause.
 * Other statuses give one form-level message: 429 counts down Retry-After,
 * 5xx hides the server's text.
 */
export function formErrors<F extends string>(error: unknown, labels: Record<F, string>): FormErrors<F> {
  if (!(error instanceof ApiError)) return { fields: {}, form: 'Could not reach the server. Check your connection and try again.' }
  if (error.status === 429) return { fields: {}, form: throttleMessage(error.retryAfterSeconds) }
  if (error.status >= 500) return { fields: {}, form: `Something went wrong on our side (${error.status}). Please try again.` }
  const message = error.serverMessage || `Request failed (${error.status})`
  if (error.status !== 400) return { fields: {}, form: sentence(message) }

  const names = (Object.keys(labels) as F[]).sort((a, b) => b.length - a.length)
  if (names.length === 0) return { fields: {}, form: sentence(message) }
  const alternatives = names.map(escapeRegExp).join('|')
  const clauses = message.split(new RegExp(`;\\s+(?=(?:${alternatives})\\b)`))
  const head = new RegExp(`^(${alternatives})(?::\\s*|\\s+)([\\s\\S]+)$`)
  const fields: Partial<Record<F, string>> = {}
  const rest: string[] = []
  for (const clause of clauses) {
    const match = head.exec(clause.trim())
    if (match) {
      const field = match[1] as F
      // An empty label: the field's name is only a tag, the rest reads on its own.
      const text = labels[field] ? `${capitalize(labels[field])} ${match[2].trim()}` : match[2].trim()
      fields[field] = fields[field] ? `${fields[field]} ${sentence(text)}` : sentence(text)
    } else {
      rest.push(clause)
    }
  }
  return rest.length ? { fields, form: sentence(rest.join('; ')) } : { fields }
}
