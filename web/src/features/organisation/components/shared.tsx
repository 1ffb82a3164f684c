import type { ReactNode } from 'react'
import { roleLabels } from '@/api/account'
import type { MemberRole } from '@/api/organisation'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { formErrors } from '@/lib/form-errors'

export const memberRoleOptions: { value: MemberRole; label: string }[] = (['learner', 'instructor', 'admin'] as const).map((value) => ({
  value,
  label: roleLabels[value],
}))

/** A panel of a tab: an h2 under the page's h1 and the tab's list. */
export function Panel({ title, description, children, actions }: { title: string; description?: ReactNode; children: ReactNode; actions?: ReactNode }) {
  return (
    <Card>
      <CardHeader className="sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1.5">
          <CardTitle as="h2">{title}</CardTitle>
          {description && <CardDescription>{description}</CardDescription>}
        </div>
        {actions}
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  )
}

/** A failed load, with the server's reason when it gave one. */
export function LoadError({ what, error }: { what: string; error: unknown }) {
  return (
    <p role="alert" className="rounded-md border border-red-500/40 bg-red-500/10 px-3 py-2 text-sm text-red-200">
      Could not load {what}. {formErrors(error, {}).form}
    </p>
  )
}

/** The one-line message of a failed action. */
export function actionError(error: unknown, fallback: string): string {
  return formErrors(error, {}).form ?? fallback
}

/** A date as people read it where they are. */
export function formatDate(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(date)
}

export function formatDateTime(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date)
}
