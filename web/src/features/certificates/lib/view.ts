import type { StoredCertificate, Verification } from '@/api/certificates'
import { ApiError } from '@/lib/api'

/** What a query holds, as far as a page chooses its view by it. */
interface QueryState<T> {
  data: T | undefined
  error: Error | null
  isPending: boolean
}

/** The verification page's answer to a code. */
export type VerificationView =
  | { kind: 'checking' }
  | { kind: 'genuine'; verification: Verification }
  | { kind: 'revoked'; verification: Verification; revokedAt: string | null }
  /** 404: no certificate has the code; message is the server's. */
  | { kind: 'unknown'; message: string }
  /** 400: the text cannot be a code; message is the server's. */
  | { kind: 'invalid'; message: string }
  | { kind: 'failed'; message: string }

const failure = (error: Error) => (error instanceof ApiError ? `${error.serverMessage} (${error.status})` : error.message)

export function verificationView(query: QueryState<Verification>): VerificationView {
  if (query.data) {
    const v = query.data
    return v.status === 'revoked' ? { kind: 'revoked', verification: v, revokedAt: v.revokedAt } : { kind: 'genuine', verification: v }
  }
  if (query.error) {
    const e = query.error
    if (e instanceof ApiError && e.status === 404) return { kind: 'unknown', message: e.serverMessage }
    if (e instanceof ApiError && e.status === 400) return { kind: 'invalid', message: e.serverMessage }
    return { kind: 'failed', message: failure(e) }
  }
  return { kind: 'checking' }
}

/** The printable certificate page's view. */
export type CertificateView =
  | { kind: 'loading' }
  | { kind: 'certificate'; certificate: StoredCertificate }
  /** 404: no certificate has this id, or it is not the caller's to see (the server does not say which). */
  | { kind: 'not-found'; message: string }
  | { kind: 'failed'; message: string }

export function certificateView(query: QueryState<StoredCertificate>): CertificateView {
  if (query.data) return { kind: 'certificate', certificate: query.data }
  if (query.error) {
    const e = query.error
    if (e instanceof ApiError && e.status === 404) return { kind: 'not-found', message: e.serverMessage }
    return { kind: 'failed', message: failure(e) }
  }
  return { kind: 'loading' }
}

// Certificate dates are calendar days in UTC, spelled out: a printed copy
// and the verification page must name the same day wherever each is read,
// and "3 April 2026" cannot be misread as 4 March.
const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })

const shortDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })

/** An RFC 3339 time as the certificate prints it: "24 November 2026", or in its table's narrow column "24 Nov 2026". */
export function formatCertificateDate(iso: string, style: 'long' | 'short' = 'long'): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return (style === 'short' ? shortDay : day).format(date)
}

/** The message with its first letter in upper case, to stand as a sentence: the server's messages begin in lower case. */
export function sentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1)
}

/** A module's competencies, as one group of the certificate's table. */
export interface ModuleGroup<T> {
  module: string
  competencies: T[]
}

/**
 * The certificate's competencies grouped by module, in the certificate's
 * order (the server lists them module by module): the table names each
 * module once, over its rows, rather than on every row.
 */
export function groupByModule<T extends { module: string }>(competencies: readonly T[]): ModuleGroup<T>[] {
  const groups: ModuleGroup<T>[] = []
  for (const c of competencies) {
    const last = groups.at(-1)
    if (last && last.module === c.module) last.competencies.push(c)
    else groups.push({ module: c.module, competencies: [c] })
  }
  return groups
}
