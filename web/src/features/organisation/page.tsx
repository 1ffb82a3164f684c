import { Link, useLocation, useSearch } from 'wouter'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { canManageOrganisation, roleLabels, type Me } from '@/api/account'
import { useOrganisation } from '@/api/organisation'
import { useRequireAccount } from '@/hooks/use-require-account'
import { CohortsTab } from './components/cohorts-tab'
import { InvitesTab } from './components/invites-tab'
import { MembersTab } from './components/members-tab'
import { RosterTab } from './components/roster-tab'
import { XAPITab } from './components/xapi-tab'

const tabs = [
  { value: 'members', label: 'Members', adminOnly: false },
  { value: 'invites', label: 'Invites', adminOnly: true },
  { value: 'roster', label: 'Roster import', adminOnly: true },
  { value: 'cohorts', label: 'Cohorts', adminOnly: false },
  { value: 'xapi', label: 'xAPI (LRS)', adminOnly: true },
] as const

type TabValue = (typeof tabs)[number]['value']

/** /organisation (instructors and admins): members, invites, roster import, cohorts and the xAPI LRS's credentials, one tab each. */
export default function OrganisationPage() {
  const me = useRequireAccount()
  const account = me.data && !me.data.guest ? me.data : null

  return (
    <section className="mx-auto w-full max-w-7xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
      {!account ? (
        <>
          <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">Organisation</h1>
          {me.isError ? (
            <p role="alert" className="mt-6 text-red-200">
              Could not load your account. Reload the page to try again.
            </p>
          ) : (
            <p role="status" className="mt-6 text-slate-300">
              Loading…
            </p>
          )}
        </>
      ) : canManageOrganisation(account) ? (
        <Manage me={account} />
      ) : (
        <>
          <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">Organisation</h1>
          <p className="mt-6 max-w-2xl text-slate-200">
            {account.organisation
              ? `Only instructors and admins manage ${account.organisation.name}; you are a ${roleLabels[account.role].toLowerCase()} there.`
              : 'You are not part of an organisation. To join one, open the invite link an admin gave you.'}{' '}
            <Link href="/account" className="font-semibold text-amber-400 underline-offset-4 hover:underline">
              Go to your account
            </Link>
          </p>
        </>
      )}
    </section>
  )
}

function Manage({ me }: { me: Me }) {
  const organisation = useOrganisation()
  const isAdmin = me.role === 'admin'
  const visible = tabs.filter((t) => isAdmin || !t.adminOnly)
  // The open tab is in the address (?tab=), so a reload or a shared link keeps it.
  const [location, navigate] = useLocation()
  const requested = new URLSearchParams(useSearch()).get('tab')
  const current: TabValue = visible.find((t) => t.value === requested)?.value ?? 'members'

  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">{organisation.data?.name ?? me.organisation?.name ?? 'Organisation'}</h1>
      <p className="mt-2 text-slate-300">
        Organisation · you are {isAdmin ? 'an admin' : 'an instructor'}
        {isAdmin ? '' : ': you manage your own cohorts and see the members'}
      </p>
      <Tabs value={current} onValueChange={(v) => navigate(`${location}?tab=${v}`, { replace: true })} className="mt-8">
        <TabsList aria-label="Organisation sections">
          {visible.map((t) => (
            <TabsTrigger key={t.value} value={t.value}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="members">
          <MembersTab me={me} />
        </TabsContent>
        {/* Kept mounted while hidden: a new invite link and an import's setup links are shown once, and must survive a look at another tab. */}
        {isAdmin && (
          <TabsContent value="invites" forceMount className="data-[state=inactive]:hidden">
            <InvitesTab />
          </TabsContent>
        )}
        {isAdmin && (
          <TabsContent value="roster" forceMount className="data-[state=inactive]:hidden">
            <RosterTab />
          </TabsContent>
        )}
        <TabsContent value="cohorts">
          <CohortsTab me={me} />
        </TabsContent>
        {/* Kept mounted while hidden, as invites: a new credential's secret is shown once. */}
        {isAdmin && (
          <TabsContent value="xapi" forceMount className="data-[state=inactive]:hidden">
            <XAPITab />
          </TabsContent>
        )}
      </Tabs>
    </>
  )
}
