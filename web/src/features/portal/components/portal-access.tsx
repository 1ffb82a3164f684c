import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { canManageOrganisation, roleLabels, type Me } from '@/api/account'
import { useRequireAccount } from '@/hooks/use-require-account'
import { linkClass } from './shared'

/**
 * The portal's door, as /organisation has it: a guest is sent to sign in
 * (and brought back), a learner is told the portal is for instructors and
 * admins, and an instructor or admin gets the page.
 */
export function PortalAccess({ children }: { children: (me: Me) => ReactNode }) {
  const me = useRequireAccount()
  const account = me.data && !me.data.guest ? me.data : null

  if (account && canManageOrganisation(account)) return <>{children(account)}</>
  return (
    <section className="mx-auto w-full max-w-7xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
      <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">Portal</h1>
      {!account ? (
        me.isError ? (
          <p role="alert" className="mt-6 text-red-200">
            Could not load your account. Reload the page to try again.
          </p>
        ) : (
          <p role="status" className="mt-6 text-slate-300">
            Loading…
          </p>
        )
      ) : (
        <p className="mt-6 max-w-2xl text-slate-200">
          Only instructors and admins use the portal
          {account.organisation ? `; you are a ${roleLabels[account.role].toLowerCase()} at ${account.organisation.name}.` : '; you are not part of an organisation.'}{' '}
          <Link href="/account" className={linkClass}>
            Go to your account
          </Link>
        </p>
      )}
    </section>
  )
}

/** The frame every portal page shares. */
export function PortalPage({ children }: { children: ReactNode }) {
  return <section className="mx-auto w-full max-w-7xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">{children}</section>
}
