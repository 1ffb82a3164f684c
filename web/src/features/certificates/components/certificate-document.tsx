import { createElement, useId } from 'react'
import type { CertificateContent } from '@/api/certificates'
import { BrandMark } from '@/components/brand-mark'
import { productName } from '@/content/navigation'
import { verifyUrl } from '../lib/code'
import { formatCertificateDate, groupByModule } from '../lib/view'
import './certificate.css'

export interface Revocation {
  /** When it was revoked; null if the server did not say. */
  at: string | null
  /** Why, where the reader may know it (the learner and their organisation's staff; /verify does not say). */
  reason?: string
}

export interface CertificateDocumentProps {
  certificate: CertificateContent
  /** Set when the certificate no longer holds: the document then carries a REVOKED banner. */
  revoked: Revocation | null
  /** The level of the document's title: 1 where it is the page, 2 under the verification page's own title. */
  headingLevel: 1 | 2
}

/**
 * A certificate as a document: what /certificates/:id prints and what
 * /verify shows, the same content on both, so that a verifier compares like
 * with like. Styled for the screen in the app's colours and, by
 * certificate.css, in black on white for paper.
 */
export function CertificateDocument({ certificate: c, revoked, headingLevel }: CertificateDocumentProps) {
  const id = useId()
  const titleId = `${id}-title`
  const tableId = `${id}-competencies`
  const url = verifyUrl(window.location.origin, c.code)
  const groups = groupByModule(c.competencies)
  const heading = (level: number, props: Record<string, unknown>, text: string) => createElement(`h${level}`, props, text)

  return (
    <article className="certificate rounded-xl border border-white/15 bg-slate-900/70 p-5 shadow-lg sm:p-8" aria-labelledby={titleId} data-testid="certificate">
      {revoked && (
        <div className="certificate-revoked mb-6 rounded-lg border-4 border-red-500 bg-red-950/40 p-4" data-testid="certificate-revoked">
          <p className="text-2xl font-black tracking-[0.2em] text-red-200">REVOKED</p>
          <p className="mt-1 text-red-100">
            This certificate was revoked{revoked.at ? ` on ${formatCertificateDate(revoked.at)}` : ''} and no longer certifies these competencies.
            {revoked.reason ? ` Reason: ${revoked.reason}` : ''}
          </p>
        </div>
      )}

      <div className="certificate-heading flex flex-col items-center gap-2 border-b border-white/15 pb-6 text-center">
        <p className="flex items-center gap-2 text-sm font-semibold uppercase tracking-[0.25em] text-amber-300">
          <BrandMark className="h-6 w-6 print:hidden" />
          {productName}
        </p>
        {heading(headingLevel, { id: titleId, className: 'certificate-title font-serif text-3xl font-bold text-white sm:text-4xl' }, 'Certificate of Competence')}
        <p className="mt-3 text-slate-300">This certifies that</p>
        <p className="certificate-learner font-serif text-2xl font-semibold text-white sm:text-3xl" data-testid="certificate-learner">
          {c.learner}
        </p>
        <p className="max-w-2xl text-slate-200">
          has been signed off in every competency of the <strong className="text-white">{c.programme}</strong> by the instructors of{' '}
          <strong className="text-white">{c.organisation}</strong>.
        </p>
      </div>

      <dl className="certificate-facts mt-6 grid print:grid-cols-3 gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-slate-300">Issued</dt>
          <dd className="font-semibold text-white">
            <time dateTime={c.issuedAt}>{formatCertificateDate(c.issuedAt)}</time>
          </dd>
        </div>
        <div>
          <dt className="text-slate-300">Signed by</dt>
          <dd className="font-semibold text-white">{c.signedBy}</dd>
        </div>
        <div>
          <dt className="text-slate-300">Organisation</dt>
          <dd className="font-semibold text-white">{c.organisation}</dd>
        </div>
      </dl>

      {/* Right under the facts, so the first sheet carries it however long the table runs. */}
      <div className="certificate-verification mt-5 flex flex-col gap-3 rounded-lg border border-white/15 px-4 py-3 text-sm sm:flex-row sm:items-end sm:justify-between print:mt-3 print:py-2">
        <p>
          <span className="block text-slate-300">Verification code</span>
          <span className="font-mono text-base font-semibold tracking-wider text-white" data-testid="certificate-code">
            {c.code}
          </span>
        </p>
        <p className="sm:text-right">
          <span className="block text-slate-300">Check this certificate at</span>
          <span className="font-mono break-all text-white" data-testid="certificate-verify-url">
            {url}
          </span>
        </p>
      </div>

      <div className="mt-8 print:mt-4">
        {heading(headingLevel + 1, { id: tableId, className: 'text-lg font-semibold text-white' }, `Competencies (${c.competencies.length})`)}
        {/* A phone or a narrow tablet gets the competencies as a list: five columns need 40rem. Paper always gets the table. */}
        <ol className="mt-3 space-y-4 md:hidden print:hidden" aria-labelledby={tableId}>
          {groups.map((g, i) => (
            <li key={i} className="rounded-lg border border-white/10 p-3">
              <p className="font-semibold text-white">{g.module}</p>
              <ul className="mt-2 space-y-2.5">
                {g.competencies.map((k, j) => (
                  <li key={j} className="text-sm">
                    <span className="text-slate-100">{k.objective}</span>
                    <span className="block text-xs text-slate-300">
                      Achieved <time dateTime={k.achievedAt}>{formatCertificateDate(k.achievedAt)}</time> · signed by {k.signedBy} · practical check{' '}
                      {k.practical ? 'yes' : 'no'}
                    </span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
        {/* A region of its own: should the table still be too wide (large text), it scrolls sideways, by keyboard too. */}
        <div
          className="certificate-table-scroll mt-3 hidden overflow-x-auto rounded-lg border border-white/10 md:block print:block"
          role="region"
          aria-labelledby={tableId}
          tabIndex={0}
        >
          <table className="certificate-table w-full min-w-[40rem] border-collapse text-left text-sm">
            {/* Widths on columns, not on a row's cells: a fixed table layout takes them from its first row, which on paper is the running head. */}
            <colgroup>
              <col className="w-[17%]" />
              <col className="w-[45%]" />
              <col className="w-[13%]" />
              <col className="w-[15%]" />
              <col className="w-[10%]" />
            </colgroup>
            <thead>
              {/* Paper only: the header rows repeat on every sheet, so a second sheet still says whose certificate it is. */}
              <tr className="certificate-running-head hidden print:table-row">
                <th colSpan={5} scope="colgroup" className="px-3 pb-1 text-left text-xs font-normal">
                  {c.learner} · {c.programme} · {c.code}
                </th>
              </tr>
              <tr className="border-b border-white/15 text-slate-300">
                <th scope="col" className="px-3 py-2 font-semibold">
                  Module
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  Competency
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  Achieved
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  Signed by
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  Practical check
                </th>
              </tr>
            </thead>
            {groups.map((g, i) => (
              <tbody key={i} className="certificate-module border-b border-white/15 last:border-b-0">
                {g.competencies.map((k, j) => (
                  <tr key={j} className="align-top">
                    {j === 0 && (
                      <th scope="rowgroup" rowSpan={g.competencies.length} className="px-3 py-2 font-semibold text-slate-100">
                        {g.module}
                      </th>
                    )}
                    <td className="px-3 py-2 text-white">{k.objective}</td>
                    <td className="px-3 py-2 whitespace-nowrap text-slate-200">
                      <time dateTime={k.achievedAt}>{formatCertificateDate(k.achievedAt, 'short')}</time>
                    </td>
                    <td className="px-3 py-2 text-slate-200">{k.signedBy}</td>
                    <td className="px-3 py-2 text-slate-200">{k.practical ? 'Yes' : 'No'}</td>
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </div>
      </div>

    </article>
  )
}
