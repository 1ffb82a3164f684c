import { useEffect, useId, useState } from 'react'
import { Link } from 'wouter'
import { Search } from 'lucide-react'
import { cohortExportUrl, useCohortLearners, type LearnerFlag, type LearnersParams } from '@/api/portal'
import { Button } from '@/components/ui/button'
import { selectClass } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import type { PageProps } from '@/lib/page'
import { LearnersTable, learnerColumns } from './components/learners-table'
import { PortalAccess, PortalPage } from './components/portal-access'
import { DownloadCsvLink, LoadError, Loading, PortalHeader, linkClass } from './components/shared'
import { useUrlState } from './hooks/use-url-state'
import { plural } from './lib/format'
import { MAX_QUERY_LENGTH, flagOptions, pageSummary, readLearnersParams, sortBy, writeLearnersParams } from './lib/learners-query'

/** Typing pauses this long before the search runs, so each keystroke is not a request. */
const SEARCH_DELAY_MS = 300

/** /portal/cohorts/:id: the cohort's learners with their figures, searched, filtered, sorted and paged by the server. */
export default function CohortPage({ params }: PageProps) {
  return <PortalAccess>{() => <CohortLearners key={params.id} cohortId={params.id} />}</PortalAccess>
}

function CohortLearners({ cohortId }: { cohortId: string }) {
  const [params, setParams] = useUrlState(readLearnersParams, writeLearnersParams)
  const learners = useCohortLearners(cohortId, params)
  const cohort = learners.data?.cohort
  const rows = learners.data?.learners ?? []
  const total = learners.data?.total ?? 0
  const filtered = params.q !== '' || params.flag !== null
  const flagLabel = flagOptions.find((o) => o.value === (params.flag ?? ''))?.label ?? 'All learners'
  const sortLabel = learnerColumns.find((c) => c.key === params.sort)?.label ?? params.sort

  // A page past the end (learners left, or an old link) goes back to the last one there is.
  const lastOffset = total > 0 ? Math.floor((total - 1) / params.limit) * params.limit : 0
  const pastEnd = learners.isSuccess && !learners.isPlaceholderData && rows.length === 0 && params.offset > 0 && total > 0
  useEffect(() => {
    if (pastEnd) setParams({ ...params, offset: lastOffset }, { replace: true })
  }, [pastEnd, lastOffset, params, setParams])

  return (
    <PortalPage>
      <PortalHeader
        trail={[{ label: 'Portal', href: '/portal' }]}
        title={cohort?.name ?? 'Cohort'}
        subtitle={cohort ? `${plural(cohort.memberCount, 'learner')} · Instructor: ${cohort.instructor.displayName || 'Unknown'}` : undefined}
        actions={learners.isError ? undefined : <DownloadCsvLink href={cohortExportUrl(cohortId)} />}
      />

      {!learners.isError && <Filters params={params} onChange={setParams} />}

      {learners.isPending ? (
        <Loading what="the learners" />
      ) : learners.isError ? (
        <LoadError error={learners.error} what="this cohort" noun="cohort">
          <p className="mt-2">
            <Link href="/portal" className={linkClass}>
              Back to your cohorts
            </Link>
          </p>
        </LoadError>
      ) : rows.length === 0 ? (
        <div className="rounded-lg border border-dashed border-white/15 px-4 py-8 text-center text-slate-300" data-testid="learners-empty">
          {filtered ? (
            <>
              <p>No learner matches{params.q ? ` “${params.q}”` : ''}{params.flag ? ` among ${flagLabel.toLowerCase()}` : ''}.</p>
              <Button variant="link" onClick={() => setParams({ ...params, q: '', flag: null, offset: 0 })}>
                Show all learners
              </Button>
            </>
          ) : (
            <p>
              No learners in this cohort yet. Add them in{' '}
              <Link href="/organisation?tab=cohorts" className={linkClass}>
                Organisation › Cohorts
              </Link>
              .
            </p>
          )}
        </div>
      ) : (
        <>
          <LearnersTable
            learners={rows}
            params={params}
            onSort={(key) => setParams(sortBy(params, key))}
            busy={learners.isFetching}
            caption={`Learners of ${cohort?.name ?? 'the cohort'}: ${flagLabel.toLowerCase()}${params.q ? ` matching “${params.q}”` : ''}, sorted by ${sortLabel.toLowerCase()}, ${params.dir === 'asc' ? 'ascending' : 'descending'}`}
          />
          <nav aria-label="Learner pages" className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-300">
            <p aria-live="polite">{pageSummary(params.offset, rows.length, total)}</p>
            <div className="flex gap-2">
              <Button variant="outline" size="sm" disabled={params.offset === 0} onClick={() => setParams({ ...params, offset: Math.max(0, params.offset - params.limit) })}>
                Previous
              </Button>
              <Button variant="outline" size="sm" disabled={params.offset + rows.length >= total} onClick={() => setParams({ ...params, offset: params.offset + params.limit })}>
                Next
              </Button>
            </div>
          </nav>
        </>
      )}
    </PortalPage>
  )
}

/**
 * The search box and the Show filter. The box keeps what is typed while the
 * address holds the search that ran, so typing is not slowed by requests;
 * when the address changes another way (Back, "Show all learners"), the box
 * follows it.
 */
function Filters({ params, onChange }: { params: LearnersParams; onChange: (next: LearnersParams, options?: { replace?: boolean }) => void }) {
  const searchId = useId()
  const flagId = useId()
  const [draft, setDraft] = useState(params.q)
  const [shownQ, setShownQ] = useState(params.q)
  if (shownQ !== params.q) {
    setShownQ(params.q)
    // The search this box sent keeps the box as typed (a trailing space before the next word stays).
    if (draft.trim() !== params.q) setDraft(params.q)
  }

  useEffect(() => {
    const q = draft.trim()
    if (q === params.q) return
    // Each pause in typing replaces the entry rather than adding one, so Back leaves the search instead of replaying it letter by letter.
    const timer = setTimeout(() => onChange({ ...params, q, offset: 0 }, { replace: true }), SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [draft, params, onChange])

  return (
    <form role="search" aria-label="Filter learners" className="mb-5 flex flex-wrap items-end gap-3" onSubmit={(e) => e.preventDefault()}>
      <div className="w-full space-y-1.5 sm:w-72">
        <Label htmlFor={searchId}>Search learners</Label>
        <div className="relative">
          <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
          <Input id={searchId} type="search" placeholder="Name or email" className="pl-9" maxLength={MAX_QUERY_LENGTH} value={draft} onChange={(e) => setDraft(e.target.value)} />
        </div>
      </div>
      <div className="w-full space-y-1.5 sm:w-56">
        <Label htmlFor={flagId}>Show</Label>
        <select id={flagId} className={selectClass} value={params.flag ?? ''} onChange={(e) => onChange({ ...params, flag: (e.target.value || null) as LearnerFlag | null, offset: 0 })}>
          {flagOptions.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
    </form>
  )
}
