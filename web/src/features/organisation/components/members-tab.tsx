import { useEffect, useId, useRef, useState } from 'react'
import { KeyRound, UserMinus } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { FormAlert, selectClass } from '@/components/ui/form-field'
import { cn } from '@/lib/utils'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { roleLabels, type Me } from '@/api/account'
import {
  useCreatePasswordResetLink,
  useMembers,
  useRemoveMember,
  useUpdateMemberRole,
  type Member,
  type MemberRole,
  type PasswordResetLink,
} from '@/api/organisation'
import { CopyField } from './copy-field'
import { LoadError, Panel, actionError, formatDate, formatDateTime, memberRoleOptions } from './shared'
import { useFocusAfterRemoval } from './use-focus-after-removal'

export const MEMBERS_PAGE_SIZE = 20
const noMembers: Member[] = []
/** Typing pauses this long before the search runs, so each keystroke is not a request. */
const SEARCH_DELAY_MS = 300

/** Members: search, pages; for admins role changes, removal and password-reset links. */
export function MembersTab({ me }: { me: Me }) {
  const isAdmin = me.role === 'admin'
  const [search, setSearch] = useState('')
  const [q, setQ] = useState('')
  const [offset, setOffset] = useState(0)
  const [error, setError] = useState('')
  const [notice, setNotice] = useState('')
  const searchId = useId()
  const searchRef = useRef<HTMLInputElement>(null)
  // An admin who makes themselves an instructor loses the select they used with the role: focus goes to the search, not the page.
  const wasAdmin = useRef(isAdmin)
  useEffect(() => {
    if (wasAdmin.current && !isAdmin && document.activeElement === document.body) searchRef.current?.focus()
    wasAdmin.current = isAdmin
  }, [isAdmin])

  // Only a changed search goes back to the first page: on mount this reset a page turned within the delay.
  useEffect(() => {
    const next = search.trim()
    if (next === q) return
    const timer = setTimeout(() => {
      setQ(next)
      setOffset(0)
    }, SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [search, q])

  const members = useMembers({ q, limit: MEMBERS_PAGE_SIZE, offset })
  const total = members.data?.total ?? 0
  const rows = members.data?.members ?? noMembers
  // The last member of the last page left (or was moved away elsewhere): show the page before, not an empty one.
  if (members.data && !members.isPlaceholderData && rows.length === 0 && offset > 0) setOffset(Math.max(0, offset - MEMBERS_PAGE_SIZE))
  const from = rows.length ? offset + 1 : 0

  // The confirmed Remove leaves with its row: focus goes to a neighbour's Remove, else the search.
  const removal = useFocusAfterRemoval(rows, searchRef)
  const to = offset + rows.length

  return (
    <Panel title="Members" description={isAdmin ? 'Everyone in your organisation. Change a role, remove someone, or give them a link to set a new password.' : 'Everyone in your organisation.'}>
      <div className="mb-4 max-w-sm space-y-1.5">
        <Label htmlFor={searchId}>Search members</Label>
        <Input ref={searchRef} id={searchId} type="search" placeholder="Name or email" value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      <FormAlert error={error} success={notice} className="mb-4" />
      {members.isPending ? (
        <p role="status" className="text-slate-300">
          Loading members…
        </p>
      ) : members.isError ? (
        <LoadError what="the members" error={members.error} />
      ) : rows.length === 0 ? (
        <p className="text-slate-300">{q ? `No member matches “${q}”.` : 'No members yet.'}</p>
      ) : (
        <ul className="divide-y divide-white/10" aria-label="Members" aria-busy={members.isFetching}>
          {rows.map((member) => (
            <MemberRow
              key={member.id}
              member={member}
              isAdmin={isAdmin}
              isSelf={member.id === me.id}
              removeRef={removal.register(member.id)}
              onRemoving={() => removal.start(member.id)}
              onError={(m) => {
                removal.cancel()
                setNotice('')
                setError(m)
              }}
              onNotice={(m) => {
                setError('')
                setNotice(m)
              }}
            />
          ))}
        </ul>
      )}
      {total > 0 && (
        <nav aria-label="Member pages" className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-300">
          <p aria-live="polite">
            Showing {from}–{to} of {total}
          </p>
          <div className="flex gap-2">
            <Button variant="outline" size="sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - MEMBERS_PAGE_SIZE))}>
              Previous page
            </Button>
            <Button variant="outline" size="sm" disabled={to >= total} onClick={() => setOffset(offset + MEMBERS_PAGE_SIZE)}>
              Next page
            </Button>
          </div>
        </nav>
      )}
    </Panel>
  )
}

function MemberRow({
  member,
  isAdmin,
  isSelf,
  removeRef,
  onRemoving,
  onError,
  onNotice,
}: {
  member: Member
  isAdmin: boolean
  isSelf: boolean
  removeRef: (button: HTMLButtonElement | null) => void
  onRemoving: () => void
  onError: (message: string) => void
  onNotice: (message: string) => void
}) {
  const updateRole = useUpdateMemberRole()
  const roleId = useId()
  const roleSelect = useRef<HTMLSelectElement>(null)
  // The role chosen in the select and not applied yet; null while it shows the stored one.
  const [draft, setDraft] = useState<MemberRole | null>(null)
  const role = draft ?? member.role
  const applyRole = () => {
    if (updateRole.isPending) return
    updateRole.mutate(
      { userId: member.id, role },
      {
        onSuccess: (updated) => onNotice(`${updated.displayName} is now ${roleLabels[updated.role].toLowerCase()}.`),
        onError: (err) => onError(actionError(err, 'Could not change the role.')),
        onSettled: () => {
          setDraft(null)
          roleSelect.current?.focus() // the button goes away
        },
      },
    )
  }
  const [removing, setRemoving] = useState(false)
  const resetLink = useCreatePasswordResetLink()
  const [link, setLink] = useState<PasswordResetLink | null>(null)

  return (
    <li className="grid gap-3 py-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1.2fr)_minmax(0,1.5fr)_auto] lg:items-center" data-member={member.email}>
      <div className="min-w-0">
        <p className="font-semibold text-white">
          {member.displayName}
          {isSelf && <span className="ml-2 text-xs font-normal text-slate-300">(you)</span>}
        </p>
        <p className="break-all text-sm text-slate-300">{member.email}</p>
        {member.joinedAt && <p className="text-xs text-slate-400">Joined {formatDate(member.joinedAt)}</p>}
      </div>
      <div>
        {isAdmin ? (
          <>
            <Label htmlFor={roleId} className="sr-only">
              Role of {member.displayName}
            </Label>
            {/* A role is applied with its button, not on change: a keyboard user's arrow keys
                change a native select's value as they look through the options. */}
            {/* The select keeps its width when Change role appears beside it: squeezed, it read "Learne". */}
            <div className="flex flex-wrap items-center gap-2">
              <select ref={roleSelect} id={roleId} className={cn(selectClass, 'w-36 shrink-0')} value={role} onChange={(e) => setDraft(e.target.value as MemberRole)}>
                {memberRoleOptions.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
              {role !== member.role && (
                <Button size="sm" onClick={applyRole} aria-label={`Change role: make ${member.displayName} ${roleLabels[role].toLowerCase()}`}>
                  {updateRole.isPending ? 'Saving…' : 'Change role'}
                </Button>
              )}
            </div>
          </>
        ) : (
          <Badge variant="outline">{roleLabels[member.role]}</Badge>
        )}
      </div>
      <div className="flex flex-wrap gap-1.5" aria-label={`Cohorts of ${member.displayName}`}>
        {member.cohorts.map((c) => (
          <Badge key={c.id} variant="secondary">
            {c.name}
          </Badge>
        ))}
        {member.teaches.map((c) => (
          <Badge key={`teaches-${c.id}`} variant="outline">
            Teaches {c.name}
          </Badge>
        ))}
        {member.cohorts.length + member.teaches.length === 0 && <span className="text-sm text-slate-400">No cohort</span>}
      </div>
      {isAdmin && (
        <div className="flex flex-wrap gap-2 lg:justify-end">
          <Button
            variant="outline"
            size="sm"
            // Unavailable, not disabled, while it waits: focus stays here, and the dialog gives it back here.
            unavailable={resetLink.isPending}
            aria-label={`Create password reset link for ${member.displayName}`}
            onClick={() => {
              resetLink.mutate(member.id, {
                onSuccess: setLink,
                onError: (err) => onError(actionError(err, 'Could not create the link.')),
              })
            }}
          >
            <KeyRound aria-hidden="true" />
            Create password reset link
          </Button>
          {!isSelf && (
            <Button ref={removeRef} variant="ghost" size="sm" aria-label={`Remove ${member.displayName}`} onClick={() => setRemoving(true)}>
              <UserMinus aria-hidden="true" />
              Remove
            </Button>
          )}
        </div>
      )}
      <Dialog open={!!link} onOpenChange={(open) => !open && setLink(null)}>
        {link && (
          <DialogContent>
            <DialogTitle>Password reset link</DialogTitle>
            <DialogDescription>
              Give this link to {member.displayName} ({member.email}). It sets a new password once and expires {formatDateTime(link.expiresAt)}.
            </DialogDescription>
            <div className="mt-5">
              <CopyField label="Password reset link" value={link.url} />
            </div>
            <div className="mt-4 flex justify-end">
              <DialogClose asChild>
                <Button>Done</Button>
              </DialogClose>
            </div>
          </DialogContent>
        )}
      </Dialog>
      <RemoveDialog
        member={member}
        open={removing}
        onOpenChange={setRemoving}
        onRemoving={onRemoving}
        onRemoved={() => onNotice(`${member.displayName} left the organisation. Their account is kept.`)}
        onError={onError}
      />
    </li>
  )
}

function RemoveDialog({
  member,
  open,
  onOpenChange,
  onRemoving,
  onRemoved,
  onError,
}: {
  member: Member
  open: boolean
  onOpenChange: (open: boolean) => void
  onRemoving: () => void
  onRemoved: () => void
  onError: (message: string) => void
}) {
  const remove = useRemoveMember()
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && (
        <DialogContent>
          <DialogTitle>Remove {member.displayName}?</DialogTitle>
          <DialogDescription>
            {member.email} leaves the organisation and its cohorts. Their account and training records are kept; they become an individual learner.
          </DialogDescription>
          <div className="mt-6 flex justify-end gap-2">
            <DialogClose asChild>
              <Button variant="ghost">Cancel</Button>
            </DialogClose>
            <Button
              variant="destructive"
              disabled={remove.isPending}
              // mutateAsync: the row (and this dialog) is gone once the list refetches, and mutate's callbacks with it.
              onClick={() => {
                onRemoving()
                void remove.mutateAsync(member.id).then(
                  () => {
                    onOpenChange(false)
                    onRemoved()
                  },
                  (err: unknown) => {
                    onOpenChange(false)
                    onError(actionError(err, 'Could not remove the member.'))
                  },
                )
              }}
            >
              Remove from organisation
            </Button>
          </div>
        </DialogContent>
      )}
    </Dialog>
  )
}
