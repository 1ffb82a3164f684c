import type { ReactNode } from 'react'
import { cn } from '@/lib/utils'

/** The plain frame of a screen: its one h1 and its content. */
export function PageShell({ title, className, children }: { title: string; className?: string; children?: ReactNode }) {
  return (
    <section className={cn('mx-auto w-full max-w-7xl px-4 py-16 sm:px-6 lg:px-8', className)}>
      <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">{title}</h1>
      {children}
    </section>
  )
}
