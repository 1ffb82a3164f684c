import { useEffect } from 'react'
import { Link } from 'wouter'
import { roleLabels, type Me } from '@/api/account'
import { useCohorts } from '@/api/organisation'
import { learnerExportUrl, useLearner } from '@/api/portal'
import { useXrSessionsPage } from '@/api/xr-sessions'
import { Button } from '@/components/ui/button'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import type { PageProps } from '@/lib/page'
import { CompetenciesPanel } from './components/competencies-panel'
import { CompetencyHistory } from './components/competency-history'
import { PortalAccess, PortalPage } from './components/portal-access'
import { SessionsTable } from './components/sessions-table'
import { DownloadCsvLink, FigureCards, LoadError, Loading, PortalHeader, linkClass } from './components/shared'
import { useUrlState } from './hooks/use-url-state'
import { pageSummary } from './lib/learners-query'
import { figureCards } from './lib/session'

/** Sessions a page of the learner's history shows. */
export const SESSIONS_PAGE_SIZE = 10

export const learnerTabs = [
  { value: 'sessions', label: 'Sessions' },
  { value: 'competencies', label: 'Competencies' },
  { value: 'history', label: 'History' },
] as const
export type LearnerTab = (typeof learnerTabs)[number]['value']

interface LearnerView {
  tab: LearnerTab
  /** The page of sessions. */
  offset: number
}

/**
 * The open tab (?tab=) and the page of sessions (?offset=) are in the
 * address, so a reload or a shared link shows the same view and Back from a
 * review returns to it. The sessions tab is the default and not written.
 */
function readView(search: string): LearnerView {
  const params = new URLSearchParams(search)
  const tab = learnerTabs.find((t) => t.value === params.get('tab'))?.value ?? 'sessions'
  const offset = Number(params.get('offset'))
  return { tab, offset: tab === 'sessions' && Number.isInteger(offset) && offset > 0 ? offset : 0 }
}
function writeView({ tab, offset }: LearnerView): string {
  if (tab !== 'sessions') return `tab=${tab}`
  return offset > 0 ? `offset=${offset}` : ''
}

/** /portal/learners/:id: one learner's figures, sessions, competencies and their history. */
export default function LearnerPage({ params }: PageProps) {
  return <PortalAccess>{(me) => <Learner key={params.id} userId={params.id} me={me} />}</PortalAccess>
}

function Learner({ userId, me }: { userId: string; me: Me }) {
  const learner = useLearner(userId)
  const detail = learner.data
  const [view, setView] = useUrlState(readView, writeView)
  const learnerName = detail?.learner.displayName || detail?.learner.email || 'the learner'

  return (
    <PortalPage>
      <PortalHeader
        trail={[{ label: 'Portal', href: '/portal' }]}
        title={detail?.learner.displayName || detail?.learner.email || 'Learner'}
        subtitle={detail && <LearnerLine detail={detail} />}
        actions={learner.isError ? undefined : <DownloadCsvLink href={learnerExportUrl(userId)} />}
      />
      {learner.isPending ? (
        <Loading what="the learner" />
      ) : learner.isError ? (
        <LoadError error={learner.error} what="this learner" noun="learner">
          <p className="mt-2">
            <Link href="/portal" className={linkClass}>
              Back to your cohorts
            </Link>
          </p>
        </LoadError>
      ) : (
        <>
          <h2 id="figures-heading" className="sr-only">
            Figures
          </h2>
          <FigureCards label="Figures" figures={figureCards(learner.data.figures)} />
          <Tabs value={view.tab} onValueChange={(tab) => setView({ tab: tab as LearnerTab, offset: 0 }, { replace: true })} className="mt-10">
            <TabsList aria-label="Learner sections">
              {learnerTabs.map((t) => (
                <TabsTrigger key={t.value} value={t.value}>
                  {t.label}
                </TabsTrigger>
              ))}
            </TabsList>
            <TabsContent value="sessions" className="mt-6">
              <Sessions userId={userId} offset={view.offset} setOffset={(offset, options) => setView({ tab: 'sessions', offset }, options)} />
            </TabsContent>
            <TabsContent value="competencies" className="mt-6">
              <h2 className="sr-only">Competencies</h2>
              <CompetenciesPanel userId={userId} learnerName={learnerName} blocked={userId === me.id ? 'You cannot sign off your own competencies: another instructor or an admin does.' : null} />
            </TabsContent>
            <TabsContent value="history" className="mt-6">
              <h2 className="sr-only">History</h2>
              <CompetencyHistory userId={userId} />
            </TabsContent>
          </Tabs>
        </>
      )}
    </PortalPage>
  )
}

function LearnerLine({ detail }: { detail: NonNullable<ReturnType<typeof useLearner>['data']> }) {
  // A cohort links to its page only when it is one of the caller's; another instructor's would answer 403.
  const mine = new Set((useCohorts().data ?? []).map((c) => c.id))
  const { learner } = detail
  return (
    <>
      <p className="break-all">
        <a href={`mailto:${learner.email}`} className="text-slate-200 underline-offset-4 hover:underline">
          {learner.email}
        </a>{' '}
        · {roleLabels[learner.role]}
      </p>
      <p className="mt-1 text-sm">
        {learner.cohorts.length === 0 ? (
          'In no cohort'
        ) : (
          <>
            {learner.cohorts.length === 1 ? 'Cohort: ' : 'Cohorts: '}
            {learner.cohorts.map((c, i) => (
              <span key={c.id}>
                {i > 0 && ', '}
                {mine.has(c.id) ? (
                  <Link href={`/portal/cohorts/${encodeURIComponent(c.id)}`} className={linkClass}>
                    {c.name}
                  </Link>
                ) : (
                  c.name
                )}
              </span>
            ))}
          </>
        )}
      </p>
    </>
  )
}

function Sessions({ userId, offset, setOffset }: { userId: string; offset: number; setOffset: (offset: number, options?: { replace?: boolean }) => void }) {
  const sessions = useXrSessionsPage(userId, { limit: SESSIONS_PAGE_SIZE, offset })
  const rows = sessions.data?.sessions ?? []
  const total = sessions.data?.total ?? 0

  const pastEnd = sessions.isSuccess && !sessions.isPlaceholderData && rows.length === 0 && offset > 0 && total > 0
  useEffect(() => {
    if (pastEnd) setOffset(Math.floor((total - 1) / SESSIONS_PAGE_SIZE) * SESSIONS_PAGE_SIZE, { replace: true })
  }, [pastEnd, total, setOffset])

  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading" className="sr-only">
        Sessions
      </h2>
      {sessions.isPending ? (
        <Loading what="the sessions" />
      ) : sessions.isError ? (
        <LoadError error={sessions.error} what="the sessions" noun="learner" />
      ) : rows.length === 0 ? (
        <p className="rounded-lg border border-dashed border-white/15 px-4 py-8 text-center text-slate-300">No sessions recorded yet.</p>
      ) : (
        <>
          <SessionsTable userId={userId} sessions={rows} busy={sessions.isFetching} caption="Sessions, newest first. Open one to review it." />
          <nav aria-label="Session pages" className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-300">
            <p aria-live="polite">{pageSummary(offset, rows.length, total)}</p>
            <div className="flex gap-2">
              <Button variant="outline" size="sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - SESSIONS_PAGE_SIZE))}>
                Previous
              </Button>
              <Button variant="outline" size="sm" disabled={offset + rows.length >= total} onClick={() => setOffset(offset + SESSIONS_PAGE_SIZE)}>
                Next
              </Button>
            </div>
          </nav>
        </>
      )}
    </section>
  )
}
