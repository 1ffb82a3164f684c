import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { legalLinks } from '@/components/footer'
import { PageShell } from '@/components/page-shell'

/** A link inside a sentence: underlined, since colour alone does not tell it from the text. */
export const inlineLink = 'text-amber-400 underline underline-offset-4 hover:text-amber-300'

/** One titled part of a document page. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-3">
      <h2 className="text-xl font-semibold text-white">{title}</h2>
      {children}
    </section>
  )
}

/**
 * The frame of the footer's policy pages: the title, a lead, the sections,
 * and links to the other two.
 */
export function DocumentPage({ title, lead, children }: { title: string; lead: string; children: ReactNode }) {
  return (
    <PageShell title={title}>
      <div className="mt-6 max-w-3xl space-y-8 text-slate-300 [&_li]:ml-5 [&_li]:list-disc [&_ul]:space-y-2">
        <p className="text-lg">{lead}</p>
        {children}
        <nav aria-label="Policies" className="border-t border-white/10 pt-6">
          <ul className="flex flex-wrap gap-x-6 gap-y-2 [&_li]:ml-0 [&_li]:list-none">
            {legalLinks
              .filter((o) => o.label !== title)
              .map((o) => (
                <li key={o.to}>
                  <Link href={o.to} className="text-amber-400 underline-offset-4 hover:underline">
                    {o.label}
                  </Link>
                </li>
              ))}
          </ul>
        </nav>
      </div>
    </PageShell>
  )
}
