import type { ReactNode } from 'react'
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card'

/** The narrow frame of the sign-in, sign-up, invite and reset pages: one h1, a line under it, the form. */
export function AuthShell({ title, description, children, footer }: { title: string; description?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <section className="mx-auto w-full max-w-md px-4 py-12 sm:py-16">
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-bold tracking-tight text-white">{title}</h1>
          {description && <CardDescription>{description}</CardDescription>}
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
      {footer && <div className="mt-6 text-center text-sm text-slate-300">{footer}</div>}
    </section>
  )
}

/** Shown while the identity or a link's details load. */
export function Loading({ label }: { label: string }) {
  return (
    <p role="status" className="text-slate-300">
      {label}
    </p>
  )
}
