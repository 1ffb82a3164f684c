import { Link } from 'wouter'
import { Radio, Users } from 'lucide-react'
import type { Me } from '@/api/account'
import { useCohorts } from '@/api/organisation'
import { PortalAccess, PortalPage } from './components/portal-access'
import { buttonVariants } from '@/components/ui/button'
import { LoadError, Loading, PortalHeader, linkClass } from './components/shared'
import { formatDate, plural } from './lib/format'

/** /portal (instructors and admins): the caller's cohorts, each leading to its learners. */
export default function PortalHomePage() {
  return <PortalAccess>{(me) => <Cohorts me={me} />}</PortalAccess>
}

function Cohorts({ me }: { me: Me }) {
  const cohorts = useCohorts()
  const isAdmin = me.role === 'admin'
  return (
    <PortalPage>
      <PortalHeader
        title="Portal"
        subtitle={isAdmin ? `Every cohort of ${me.organisation?.name ?? 'your organisation'}: open one to follow its learners.` : 'The cohorts you teach: open one to follow its learners.'}
        actions={
          <Link href="/portal/live" className={buttonVariants({ variant: 'outline' })}>
            <Radio aria-hidden="true" />
            Live view
          </Link>
        }
      />
      <h2 id="cohorts-heading" className="mb-4 text-xl font-semibold text-white">
        Cohorts
      </h2>
      {cohorts.isPending ? (
        <Loading what="your cohorts" />
      ) : cohorts.isError ? (
        <LoadError error={cohorts.error} what="your cohorts" noun="cohort list" />
      ) : cohorts.data.length === 0 ? (
        <p className="max-w-2xl text-slate-300">
          {isAdmin ? 'Your organisation has no cohorts yet.' : 'You teach no cohorts yet.'}{' '}
          <Link href="/organisation?tab=cohorts" className={linkClass}>
            Create a cohort
          </Link>{' '}
          and add learners to it; they show here.
        </p>
      ) : (
        <ul aria-labelledby="cohorts-heading" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {cohorts.data.map((c) => (
            <li key={c.id} className="relative rounded-xl border border-white/10 bg-slate-900/70 p-5 transition-colors focus-within:ring-2 focus-within:ring-amber-400 hover:border-white/25">
              <h3 className="text-lg font-semibold text-white">
                {/* The link covers the card (after:inset-0), so the whole card is one target and one tab stop. */}
                <Link href={`/portal/cohorts/${encodeURIComponent(c.id)}`} className="rounded-sm after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none hover:text-amber-300">
                  {c.name}
                </Link>
              </h3>
              <p className="mt-3 flex items-center gap-2 text-sm text-slate-200">
                <Users className="h-4 w-4 text-slate-400" aria-hidden="true" />
                {plural(c.memberCount, 'learner')}
              </p>
              <p className="mt-1 text-sm text-slate-300">Instructor: {c.instructor.displayName || 'Unknown'}</p>
              <p className="mt-1 text-xs text-slate-400">Created {formatDate(c.createdAt)}</p>
            </li>
          ))}
        </ul>
      )}
    </PortalPage>
  )
}
