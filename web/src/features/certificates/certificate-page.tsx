import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { ArrowLeft, Printer } from 'lucide-react'
import { useCertificate } from '@/api/certificates'
import { Button } from '@/components/ui/button'
import { useRequireAccount } from '@/hooks/use-require-account'
import type { PageProps } from '@/lib/page'
import { CertificateDocument } from './components/certificate-document'
import { certificateView, sentence } from './lib/view'
import { textLinkClass } from '@/components/ui/text-link'

function Shell({ children }: { children: ReactNode }) {
  return <section className="certificate-page mx-auto w-full max-w-5xl px-4 py-10 sm:px-6 sm:py-14">{children}</section>
}

function Message({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Shell>
      <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">{title}</h1>
      {children}
    </Shell>
  )
}

/**
 * /certificates/:id: a certificate as a document to print. Its learner and
 * the staff of the organisation that issued it may see it; for anyone else
 * the server answers 404, as for an id that does not exist.
 */
export default function CertificatePage({ params }: PageProps) {
  const id = params.id ?? ''
  const me = useRequireAccount()
  const signedIn = me.data?.guest === false
  const query = useCertificate(id, { enabled: signedIn })

  if (me.isError) {
    return (
      <Message title="Certificate">
        <p role="alert" className="mt-6 text-red-200">
          Could not load your account. Reload the page to try again.
        </p>
      </Message>
    )
  }
  const view = signedIn ? certificateView(query) : { kind: 'loading' as const }
  switch (view.kind) {
    case 'loading':
      return (
        <Message title="Certificate">
          <p role="status" className="mt-6 text-slate-300">
            Loading the certificate…
          </p>
        </Message>
      )
    case 'not-found':
      return (
        <Message title="Certificate not found">
          <p className="mt-6 max-w-2xl text-slate-200">
            {sentence(view.message)}. A certificate shows here for its learner and for the instructors and admins of the organisation that issued it.
          </p>
          <p className="mt-4">
            <Link href="/account" className={textLinkClass}>
              Your certificates are listed on your account
            </Link>
          </p>
        </Message>
      )
    case 'failed':
      return (
        <Message title="Certificate">
          <p role="alert" className="mt-6 text-red-200">
            Could not load the certificate: {view.message}.
          </p>
          <Button variant="outline" className="mt-4" onClick={() => query.refetch()}>
            Try again
          </Button>
        </Message>
      )
    case 'certificate': {
      const { certificate, revokedAt, revokedReason, learnerId } = view.certificate
      const revoked = revokedAt ? { at: revokedAt, reason: revokedReason } : null
      // The learner goes back to their account; their organisation's staff, to the learner in the portal.
      const own = me.data?.id === learnerId
      return (
        <Shell>
          <div className="mb-6 flex flex-wrap items-center justify-between gap-3 print:hidden">
            <Link href={own ? '/account' : `/portal/learners/${encodeURIComponent(learnerId)}`} className={`inline-flex items-center gap-1.5 text-sm ${textLinkClass}`}>
              <ArrowLeft className="h-4 w-4" aria-hidden="true" />
              {own ? 'Your account' : `${certificate.learner} in the portal`}
            </Link>
            <Button onClick={() => window.print()}>
              <Printer aria-hidden="true" />
              Print
            </Button>
          </div>
          <CertificateDocument certificate={certificate} revoked={revoked} headingLevel={1} />
        </Shell>
      )
    }
  }
}
