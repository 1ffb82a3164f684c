import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { useLocation } from 'wouter'
import { useHistoryState } from 'wouter/use-browser-location'
import { BadgeCheck, CircleAlert, SearchX } from 'lucide-react'
import { useVerification } from '@/api/certificates'
import { Button } from '@/components/ui/button'
import { FormAlert, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import type { PageProps } from '@/lib/page'
import { cn } from '@/lib/utils'
import { CertificateDocument } from './components/certificate-document'
import { normalizeCode, verifyPath } from './lib/code'
import { formatCertificateDate, sentence, verificationView, type VerificationView } from './lib/view'

/** Set on the address the form opens, so the page it opens moves focus to the verdict. */
interface VerifyState {
  fromVerifyForm?: boolean
}

/**
 * /verify and /verify/:code: anyone, signed in or not, checks a certificate
 * by the code printed on it, and sees the certificate as it was issued.
 */
export default function VerifyPage({ params }: PageProps) {
  const typed = params.code
  // One code, one cached answer, however it was typed; what cannot be a code goes as typed for the server to explain.
  const lookup = typed === undefined ? '' : (normalizeCode(typed) ?? typed)
  const query = useVerification(lookup, { enabled: typed !== undefined })
  const [location, navigate] = useLocation()
  const cameFromForm = (useHistoryState() as VerifyState | null)?.fromVerifyForm === true
  const [focusVerdict, setFocusVerdict] = useState(cameFromForm)

  const check = (path: string) => {
    if (path === location) {
      // The same address: ask again, since the certificate may have been revoked since.
      void query.refetch()
      setFocusVerdict(true)
    } else {
      navigate(path, { state: { fromVerifyForm: true } satisfies VerifyState })
    }
  }

  return (
    <section className="certificate-page mx-auto w-full max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">Verify a certificate</h1>
      <p className="mt-3 max-w-2xl text-slate-300 print:hidden">
        Every Journeyman XR certificate carries a verification code. Enter it to see whether the certificate is genuine and still holds, and what it
        certifies.
      </p>
      <VerifyForm key={typed ?? ''} initial={typed ?? ''} onCheck={check} />
      {typed !== undefined && (
        <Verdict
          code={lookup}
          view={verificationView(query)}
          focus={focusVerdict}
          onFocused={() => setFocusVerdict(false)}
          retry={() => void query.refetch()}
        />
      )}
    </section>
  )
}

function VerifyForm({ initial, onCheck }: { initial: string; onCheck: (path: string) => void }) {
  const [value, setValue] = useState(initial)
  const [error, setError] = useState('')
  const input = useRef<HTMLInputElement>(null)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const path = verifyPath(value)
    if (!path) {
      setError(value.trim() === '' ? 'Enter the code printed on the certificate.' : 'A certificate code has no “/”: it reads JXR- and three groups of four letters and digits.')
      input.current?.focus()
      return
    }
    setError('')
    onCheck(path)
  }
  return (
    <form role="search" aria-label="Verify a certificate" noValidate onSubmit={submit} className="mt-6 max-w-xl print:hidden">
      <FormField label="Certificate code" hint="For example JXR-7K2M-9QX4-D1FZ; any case, dashes optional." error={error} name="code">
        {(p) => (
          <div className="flex flex-col gap-3 sm:flex-row">
            <Input
              {...p}
              ref={input}
              name="code"
              value={value}
              onChange={(e) => setValue(e.target.value)}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              className="font-mono tracking-wider"
            />
            <Button type="submit">Verify</Button>
          </div>
        )}
      </FormField>
      <FormAlert fieldErrors={[error]} className="sr-only" />
    </form>
  )
}

interface VerdictProps {
  code: string
  view: VerificationView
  /** Move focus to the verdict once it is known: the reader just asked for it. */
  focus: boolean
  onFocused: () => void
  retry: () => void
}

function Verdict({ code, view, focus, onFocused, retry }: VerdictProps) {
  const headingRef = useRef<HTMLHeadingElement>(null)
  const known = view.kind !== 'checking'
  useEffect(() => {
    if (focus && known) {
      headingRef.current?.focus()
      onFocused()
    }
  }, [focus, known, onFocused])

  if (view.kind === 'checking') {
    return (
      <p role="status" className="mt-8 text-slate-300">
        Checking {code}…
      </p>
    )
  }

  const box = (tone: 'good' | 'bad' | 'neutral', icon: ReactNode, title: string, body: ReactNode) => (
    <div
      className={cn(
        'mt-8 flex gap-3 rounded-xl border p-4 sm:p-5',
        tone === 'good' && 'border-emerald-500/50 bg-emerald-500/10',
        tone === 'bad' && 'border-red-500/60 bg-red-500/10',
        tone === 'neutral' && 'border-white/15 bg-slate-900/70',
      )}
      data-testid="verdict"
      data-verdict={view.kind}
    >
      <span className={cn('mt-0.5 shrink-0', tone === 'good' ? 'text-emerald-300' : tone === 'bad' ? 'text-red-300' : 'text-amber-300')} aria-hidden="true">
        {icon}
      </span>
      <div className="min-w-0">
        <h2 ref={headingRef} tabIndex={-1} className="text-xl font-bold text-white outline-none">
          {title}
        </h2>
        <div className="mt-1 text-slate-200">{body}</div>
      </div>
    </div>
  )

  switch (view.kind) {
    case 'genuine': {
      const c = view.verification.certificate
      return (
        <>
          {box(
            'good',
            <BadgeCheck className="h-6 w-6" />,
            'Genuine certificate',
            <p>
              {c.organisation} issued this certificate to {c.learner} on {formatCertificateDate(c.issuedAt)}, and it still holds. What it certifies is below, as
              issued.
            </p>,
          )}
          <div className="mt-6">
            <CertificateDocument certificate={c} revoked={null} headingLevel={2} />
          </div>
        </>
      )
    }
    case 'revoked': {
      const c = view.verification.certificate
      return (
        <>
          {box(
            'bad',
            <CircleAlert className="h-6 w-6" />,
            view.revokedAt ? `This certificate was revoked on ${formatCertificateDate(view.revokedAt)}` : 'This certificate was revoked',
            <p>
              {c.organisation} issued it to {c.learner} on {formatCertificateDate(c.issuedAt)}, then revoked it: it no longer certifies these competencies.
            </p>,
          )}
          <div className="mt-6">
            <CertificateDocument certificate={c} revoked={{ at: view.revokedAt }} headingLevel={2} />
          </div>
        </>
      )
    }
    case 'unknown':
      return box(
        'bad',
        <SearchX className="h-6 w-6" />,
        'No certificate has this code',
        <p>{sentence(view.message)}.</p>,
      )
    case 'invalid':
      return box('neutral', <CircleAlert className="h-6 w-6" />, 'This is not a certificate code', <p>{sentence(view.message)}.</p>)
    case 'failed':
      return (
        <div className="mt-8">
          <p role="alert" className="text-red-200">
            Could not check the code: {view.message}.
          </p>
          <Button variant="outline" className="mt-3" onClick={retry}>
            Try again
          </Button>
        </div>
      )
  }
}
