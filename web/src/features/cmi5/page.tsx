import { useId, useState, type FormEvent } from 'react'
import { Link } from 'wouter'
import { Button } from '@/components/ui/button'
import { FormAlert } from '@/components/ui/form-field'
import { Label } from '@/components/ui/label'
import { canManageOrganisation, type Me } from '@/api/account'
import { useCmi5Courses, useDeleteCmi5Course, useImportCmi5Course, useLaunchCmi5AU, type Cmi5AU, type Cmi5Course } from '@/api/cmi5'
import { useRequireAccount } from '@/hooks/use-require-account'
import { formErrors } from '@/lib/form-errors'

/** /cmi5: the organisation's cmi5 courses; members launch their AUs, staff import and delete courses. */
export default function Cmi5Page() {
  const me = useRequireAccount()
  const account = me.data && !me.data.guest ? me.data : null

  return (
    <section className="mx-auto w-full max-w-5xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
      <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">Courses</h1>
      {!account ? (
        <p role="status" className="mt-6 text-slate-300">
          Loading…
        </p>
      ) : !account.organisation ? (
        <p className="mt-6 max-w-2xl text-slate-200">
          Courses belong to an organisation, and you are not part of one. To join one, open the invite link an admin gave you.{' '}
          <Link href="/account" className="font-semibold text-amber-400 underline-offset-4 hover:underline">
            Go to your account
          </Link>
        </p>
      ) : (
        <Catalog me={account} />
      )}
    </section>
  )
}

function Catalog({ me }: { me: Me }) {
  const staff = canManageOrganisation(me)
  const courses = useCmi5Courses()
  return (
    <>
      <p className="mt-4 max-w-2xl text-slate-300">
        cmi5 courses of {me.organisation?.name}. Launching a lesson records your progress in the organisation&apos;s learning records.
      </p>
      {staff && <ImportForm />}
      {courses.isError ? (
        <p role="alert" className="mt-8 text-red-200">
          Could not load the courses. Reload the page to try again.
        </p>
      ) : !courses.data ? (
        <p role="status" className="mt-8 text-slate-300">
          Loading courses…
        </p>
      ) : courses.data.courses.length === 0 ? (
        <p className="mt-8 text-slate-300">No courses yet{staff ? ': import a cmi5 package above.' : '.'}</p>
      ) : (
        <ul className="mt-8 grid gap-6" aria-label="Courses">
          {courses.data.courses.map((c) => (
            <CourseCard key={c.id} course={c} staff={staff} />
          ))}
        </ul>
      )}
    </>
  )
}

function ImportForm() {
  const [file, setFile] = useState<File | null>(null)
  const [error, setError] = useState('')
  const [done, setDone] = useState('')
  const run = useImportCmi5Course()
  const fileId = useId()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!file) return
    setError('')
    setDone('')
    run.mutate(file, {
      onSuccess: (c) => setDone(`Imported “${c.title}” with ${c.aus.length} ${c.aus.length === 1 ? 'lesson' : 'lessons'}.`),
      onError: (e) => setError(formErrors(e, {}).form ?? 'The import failed.'),
    })
  }

  return (
    <form onSubmit={submit} className="mt-8 rounded-lg border border-white/10 bg-slate-900/60 p-4" aria-label="Import a course">
      <Label htmlFor={fileId}>Import a cmi5 package (a .zip, or a cmi5.xml whose lessons live elsewhere)</Label>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <input
          id={fileId}
          type="file"
          accept=".zip,.xml,application/zip,application/xml"
          className="text-sm text-slate-200"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
        <Button type="submit" disabled={!file || run.isPending}>
          {run.isPending ? 'Importing…' : 'Import'}
        </Button>
      </div>
      <FormAlert error={error} success={done} className="mt-3" />
    </form>
  )
}

function CourseCard({ course, staff }: { course: Cmi5Course; staff: boolean }) {
  const remove = useDeleteCmi5Course()
  const headingId = useId()
  return (
    <li className="rounded-lg border border-white/10 bg-slate-900/60 p-5" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={headingId} className="text-xl font-semibold text-white">
            {course.title}
          </h2>
          {course.description && <p className="mt-1 text-slate-300">{course.description}</p>}
        </div>
        {staff && (
          <Button
            variant="outline"
            size="sm"
            disabled={remove.isPending}
            onClick={() => {
              if (window.confirm(`Delete “${course.title}”? Its learning records stay.`)) remove.mutate(course.id)
            }}
          >
            Delete course
          </Button>
        )}
      </div>
      <ul className="mt-4 grid gap-3" aria-label={`Lessons of ${course.title}`}>
        {course.aus.map((au) => (
          <AURow key={au.id} au={au} />
        ))}
      </ul>
    </li>
  )
}

/** What a learner needs to do to finish an AU, from its moveOn. */
const moveOnLabels: Record<string, string> = {
  Passed: 'Pass it',
  Completed: 'Complete it',
  CompletedAndPassed: 'Complete and pass it',
  CompletedOrPassed: 'Complete or pass it',
  NotApplicable: 'Optional',
}

function AURow({ au }: { au: Cmi5AU }) {
  const launch = useLaunchCmi5AU()
  const [error, setError] = useState('')

  const start = () => {
    setError('')
    // A window opened after the answer arrives would be blocked as a pop-up: it is opened now and pointed later.
    const win = au.launchMethod === 'AnyWindow' ? window.open('', '_blank') : null
    launch.mutate(au.id, {
      onSuccess: (l) => {
        if (win) {
          win.opener = null
          win.location.href = l.url
        } else {
          window.location.assign(l.url)
        }
      },
      onError: (e) => {
        win?.close()
        setError(formErrors(e, {}).form ?? 'The launch failed.')
      },
    })
  }

  return (
    <li className="flex flex-wrap items-center justify-between gap-3 rounded-md bg-white/5 px-4 py-3">
      <div>
        <p className="font-medium text-white">{au.title}</p>
        <p className="text-sm text-slate-300">
          {moveOnLabels[au.moveOn] ?? au.moveOn}
          {au.masteryScore !== null ? ` · pass mark ${Math.round(au.masteryScore * 100)}%` : ''}
        </p>
        <FormAlert error={error} className="mt-2" />
      </div>
      <Button onClick={start} disabled={launch.isPending} aria-label={`Launch ${au.title}`}>
        Launch
      </Button>
    </li>
  )
}
