import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { Users } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { FormAlert, FormField, selectClass } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { roleLabels, type Me } from '@/api/account'
import {
  useAddCohortMember,
  useCohort,
  useCohorts,
  useCreateCohort,
  useMembers,
  useRemoveCohortMember,
  useUpdateCohort,
  type Cohort,
  type CohortDetail,
} from '@/api/organisation'
import { formErrors } from '@/lib/form-errors'
import { cn } from '@/lib/utils'
import { LoadError, Panel, actionError } from './shared'
import { useFocusAfterRemoval } from './use-focus-after-removal'

const COHORT_NAME_MAX = 80
/** Instructors to choose from: the first page of members is enough for a training centre's staff. */
const STAFF_PAGE = { q: '', limit: 100, offset: 0 }

function checkName(name: string): string | undefined {
  const n = name.trim()
  if (!n) return 'Name is required.'
  if ([...n].length > COHORT_NAME_MAX) return `Name must be at most ${COHORT_NAME_MAX} characters.`
  return undefined
}

/** Members who can own a cohort. */
function useStaff(enabled: boolean) {
  const members = useMembers(STAFF_PAGE, enabled)
  return (members.data?.members ?? []).filter((m) => m.role === 'instructor' || m.role === 'admin')
}

/** Cohorts: an instructor's own (an admin's: all of them); create, rename, assign an instructor (admins), add and remove members. */
export function CohortsTab({ me }: { me: Me }) {
  const cohorts = useCohorts()
  const [selected, setSelected] = useState<string | null>(null)
  const isAdmin = me.role === 'admin'

  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <div className="space-y-6">
        <CreateCohort me={me} isAdmin={isAdmin} onCreated={setSelected} />
        <Panel title="Cohorts" description={isAdmin ? 'Every cohort of your organisation.' : 'The cohorts you teach.'}>
          {cohorts.isPending ? (
            <p role="status" className="text-slate-300">
              Loading cohorts…
            </p>
          ) : cohorts.isError ? (
            <LoadError what="the cohorts" error={cohorts.error} />
          ) : cohorts.data.length === 0 ? (
            <p className="text-slate-300">No cohorts yet.</p>
          ) : (
            <ul className="space-y-2" aria-label="Cohorts">
              {cohorts.data.map((c) => (
                <CohortItem key={c.id} cohort={c} current={c.id === selected} onOpen={() => setSelected(c.id)} />
              ))}
            </ul>
          )}
        </Panel>
      </div>
      {selected ? (
        <CohortEditor key={selected} id={selected} isAdmin={isAdmin} />
      ) : (
        <Panel title="Cohort details">
          <p className="text-slate-300">Choose a cohort to rename it and manage its members.</p>
        </Panel>
      )}
    </div>
  )
}

function CohortItem({ cohort, current, onOpen }: { cohort: Cohort; current: boolean; onOpen: () => void }) {
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        aria-current={current ? 'true' : undefined}
        className={cn(
          'flex w-full items-center justify-between gap-3 rounded-lg border px-3 py-2 text-left hover:bg-white/5 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400',
          current ? 'border-amber-500/60 bg-amber-500/10' : 'border-white/10',
        )}
      >
        <span className="min-w-0">
          <span className="block font-semibold text-white">{cohort.name}</span>
          <span className="block text-xs text-slate-300">Instructor: {cohort.instructor.displayName}</span>
        </span>
        <span className="flex shrink-0 items-center gap-1 text-sm text-slate-200">
          <Users className="h-4 w-4" aria-hidden="true" />
          {cohort.memberCount}
          <span className="sr-only">{cohort.memberCount === 1 ? 'member' : 'members'}</span>
        </span>
      </button>
    </li>
  )
}

function CreateCohort({ me, isAdmin, onCreated }: { me: Me; isAdmin: boolean; onCreated: (id: string) => void }) {
  const create = useCreateCohort()
  const staff = useStaff(isAdmin)
  const [name, setName] = useState('')
  const [instructorId, setInstructorId] = useState(me.id)
  const [errors, setErrors] = useState<{ fields: { name?: string; instructorId?: string }; form?: string }>({ fields: {} })
  const [done, setDone] = useState('')

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setDone('')
    const problem = checkName(name)
    if (problem) return setErrors({ fields: { name: problem } })
    setErrors({ fields: {} })
    create.mutate(
      { name: name.trim(), ...(isAdmin && instructorId !== me.id ? { instructorId } : {}) },
      {
        onSuccess: (c) => {
          setName('')
          setDone(`Cohort ${c.name} created.`)
          onCreated(c.id)
        },
        onError: (e) => setErrors(formErrors(e, { name: 'name', instructorId: 'instructor' })),
      },
    )
  }

  return (
    <Panel title="Create a cohort">
      <form noValidate onSubmit={submit} className="space-y-4" aria-label="Create a cohort">
        <FormField label="Cohort name" error={errors.fields.name}>
          {(p) => (
            <Input
              {...p}
              name="cohortName"
              value={name}
              onChange={(e) => {
                setName(e.target.value)
                setErrors((x) => ({ ...x, fields: { ...x.fields, name: undefined } }))
              }}
            />
          )}
        </FormField>
        {isAdmin && (
          <FormField label="Instructor" error={errors.fields.instructorId}>
            {(p) => (
              <select {...p} className={selectClass} value={instructorId} onChange={(e) => setInstructorId(e.target.value)}>
                <option value={me.id}>{me.displayName} (you)</option>
                {staff
                  .filter((m) => m.id !== me.id)
                  .map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.displayName} ({roleLabels[m.role].toLowerCase()})
                    </option>
                  ))}
              </select>
            )}
          </FormField>
        )}
        <FormAlert error={errors.form} fieldErrors={[errors.fields.name, errors.fields.instructorId]} success={done} />
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create cohort'}
        </Button>
      </form>
    </Panel>
  )
}

function CohortEditor({ id, isAdmin }: { id: string; isAdmin: boolean }) {
  const cohort = useCohort(id)
  if (cohort.isPending) {
    return (
      <Panel title="Cohort details">
        <p role="status" className="text-slate-300">
          Loading the cohort…
        </p>
      </Panel>
    )
  }
  if (cohort.isError) {
    return (
      <Panel title="Cohort details">
        <LoadError what="the cohort" error={cohort.error} />
      </Panel>
    )
  }
  return <CohortDetails cohort={cohort.data} isAdmin={isAdmin} />
}

function CohortDetails({ cohort, isAdmin }: { cohort: CohortDetail; isAdmin: boolean }) {
  const update = useUpdateCohort()
  const staff = useStaff(isAdmin)
  const removeMember = useRemoveCohortMember()
  const [name, setName] = useState(cohort.name)
  const [nameError, setNameError] = useState<string | undefined>()
  const [message, setMessage] = useState<{ error?: string; success?: string }>({})
  const [memberMessage, setMemberMessage] = useState<{ error?: string; success?: string }>({})
  const instructorId = useId()
  const membersHeading = useRef<HTMLHeadingElement>(null)
  // The pressed Remove leaves with its member: focus goes to a neighbour's Remove, else (the list now empty) the Members heading.
  const removal = useFocusAfterRemoval(cohort.members, membersHeading)

  const remove = (member: CohortDetail['members'][number]) => {
    removal.start(member.id)
    removeMember.mutate(
      { cohortId: cohort.id, userId: member.id },
      {
        onSuccess: () => setMemberMessage({ success: `${member.displayName} left ${cohort.name}.` }),
        onError: (err) => {
          removal.cancel()
          setMemberMessage({ error: actionError(err, 'Could not remove the member.') })
        },
      },
    )
  }

  // A rename stored (here or elsewhere) replaces what the field shows.
  const [storedName, setStoredName] = useState(cohort.name)
  if (storedName !== cohort.name) {
    setStoredName(cohort.name)
    setName(cohort.name)
  }

  const rename = (event: FormEvent) => {
    event.preventDefault()
    const problem = checkName(name)
    setNameError(problem)
    if (problem) return
    update.mutate(
      { id: cohort.id, name: name.trim() },
      {
        onSuccess: (c) => setMessage({ success: `Renamed to ${c.name}.` }),
        onError: (e) => {
          const found = formErrors(e, { name: 'name' })
          setNameError(found.fields.name)
          setMessage({ error: found.form })
        },
      },
    )
  }

  return (
    <Panel title={cohort.name} description={`Instructor: ${cohort.instructor.displayName} · ${cohort.memberCount} ${cohort.memberCount === 1 ? 'member' : 'members'}`}>
      <div className="space-y-6">
        <FormAlert error={message.error} success={message.success} />
        <form noValidate onSubmit={rename} className="flex flex-col gap-2 sm:flex-row sm:items-end" aria-label="Rename the cohort">
          <FormField label="Cohort name" error={nameError} className="flex-1">
            {(p) => <Input {...p} name="renameCohort" value={name} onChange={(e) => setName(e.target.value)} />}
          </FormField>
          <Button type="submit" variant="secondary" disabled={update.isPending || name.trim() === cohort.name}>
            Rename
          </Button>
        </form>
        {isAdmin && (
          <div className="space-y-1.5">
            <Label htmlFor={instructorId}>Instructor</Label>
            <select
              id={instructorId}
              className={selectClass}
              value={cohort.instructor.id}
              disabled={update.isPending}
              onChange={(e) =>
                update.mutate(
                  { id: cohort.id, instructorId: e.target.value },
                  {
                    onSuccess: (c) => setMessage({ success: `${c.instructor.displayName} now teaches ${c.name}.` }),
                    onError: (err) => setMessage({ error: actionError(err, 'Could not change the instructor.') }),
                  },
                )
              }
            >
              {!staff.some((m) => m.id === cohort.instructor.id) && <option value={cohort.instructor.id}>{cohort.instructor.displayName}</option>}
              {staff.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.displayName} ({roleLabels[m.role].toLowerCase()})
                </option>
              ))}
            </select>
          </div>
        )}
        <section aria-labelledby={`${instructorId}-members`} className="space-y-3">
          <h3 ref={membersHeading} id={`${instructorId}-members`} tabIndex={-1} className="font-semibold text-white outline-none">
            Members
          </h3>
          {/* Who joined or left, and why not: said here, by the list, rather than at the top of the panel, off screen. */}
          <FormAlert error={memberMessage.error} success={memberMessage.success} />
          {cohort.members.length === 0 ? (
            <p className="text-sm text-slate-300">No members yet.</p>
          ) : (
            <ul className="divide-y divide-white/10" aria-label={`Members of ${cohort.name}`}>
              {cohort.members.map((m) => (
                <li key={m.id} className="flex items-center justify-between gap-3 py-2">
                  <span className="min-w-0">
                    <span className="block text-white">{m.displayName}</span>
                    <span className="block break-all text-xs text-slate-300">
                      {m.email} · {roleLabels[m.role]}
                    </span>
                  </span>
                  <Button
                    ref={removal.register(m.id)}
                    variant="ghost"
                    size="sm"
                    aria-label={`Remove ${m.displayName} from ${cohort.name}`}
                    // Unavailable, not disabled, while it waits: focus stays here until the member is gone, or here if removing fails.
                    unavailable={removeMember.isPending}
                    onClick={() => remove(m)}
                  >
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
          )}
          <AddMember cohort={cohort} onDone={setMemberMessage} />
        </section>
      </div>
    </Panel>
  )
}

function AddMember({ cohort, onDone }: { cohort: CohortDetail; onDone: (m: { error?: string; success?: string }) => void }) {
  const [search, setSearch] = useState('')
  const [q, setQ] = useState('')
  const add = useAddCohortMember()
  const searchId = useId()
  const searchRef = useRef<HTMLInputElement>(null)

  useEffect(() => {
    const timer = setTimeout(() => setQ(search.trim()), 300)
    return () => clearTimeout(timer)
  }, [search])

  const results = useMembers({ q, limit: 10, offset: 0 }, q.length > 0)
  const inCohort = new Set(cohort.members.map((m) => m.id))
  const candidates = (results.data?.members ?? []).filter((m) => !inCohort.has(m.id))

  return (
    <div className="space-y-2 rounded-lg border border-white/10 p-3">
      <Label htmlFor={searchId}>Add a member</Label>
      <Input ref={searchRef} id={searchId} type="search" placeholder="Search by name or email" value={search} onChange={(e) => setSearch(e.target.value)} />
      {q && (
        <div aria-live="polite">
          {results.isPending ? (
            <p className="text-sm text-slate-300">Searching…</p>
          ) : results.isError ? (
            <LoadError what="the members" error={results.error} />
          ) : candidates.length === 0 ? (
            <p className="text-sm text-slate-300">No one else in your organisation matches “{q}”.</p>
          ) : (
            <ul className="divide-y divide-white/10" aria-label="Matching members">
              {candidates.map((m) => (
                <li key={m.id} className="flex items-center justify-between gap-3 py-2">
                  <span className="min-w-0">
                    <span className="block text-white">{m.displayName}</span>
                    <span className="block break-all text-xs text-slate-300">{m.email}</span>
                  </span>
                  <Button
                    size="sm"
                    variant="secondary"
                    // Unavailable, not disabled, while it waits: focus stays here if adding fails.
                    unavailable={add.isPending}
                    aria-label={`Add ${m.displayName} to ${cohort.name}`}
                    onClick={() => {
                      add.mutate(
                        { cohortId: cohort.id, userId: m.id },
                        {
                          onSuccess: () => {
                            onDone({ success: `${m.displayName} joined ${cohort.name}.` })
                            // The pressed button leaves the matches with its member: back to the search, for the next one.
                            searchRef.current?.focus()
                          },
                          onError: (err) => onDone({ error: actionError(err, 'Could not add the member.') }),
                        },
                      )
                    }}
                  >
                    Add
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  )
}
