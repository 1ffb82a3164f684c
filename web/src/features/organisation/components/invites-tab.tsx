import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Badge } from '@/components/ui/badge'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Button } from '@/components/ui/button'
import { FormAlert, FormField, selectClass } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { roleLabels } from '@/api/account'
import { useCohorts, useCreateInvite, useInvites, useRevokeInvite, type CreatedInvite, type Invite, type MemberRole } from '@/api/organisation'
import { formErrors } from '@/lib/form-errors'
import { CopyField } from './copy-field'
import { LoadError, Panel, actionError, formatDateTime, memberRoleOptions } from './shared'

export const INVITE_DAYS = { min: 1, max: 30, default: 7 }
export const INVITE_USES = { min: 2, max: 1000, default: 30 }

type InviteFormValues = { role: MemberRole; cohortId: string; expiresInDays: string; multiUse: boolean; maxUses: string }
type InviteField = 'role' | 'cohortId' | 'expiresInDays' | 'maxUses'

const inviteLabels: Record<InviteField, string> = { role: 'role', cohortId: 'cohort', expiresInDays: 'expiry', maxUses: 'maximum uses' }

/** Checks the invite form; whole numbers in range, or a message per field. */
export function checkInviteForm(values: InviteFormValues): { ok: true; input: { role: MemberRole; cohortId?: string; expiresInDays: number; maxUses: number } } | { ok: false; fields: Partial<Record<InviteField, string>> } {
  const fields: Partial<Record<InviteField, string>> = {}
  const days = Number(values.expiresInDays)
  if (!/^\d+$/.test(values.expiresInDays.trim()) || days < INVITE_DAYS.min || days > INVITE_DAYS.max) {
    fields.expiresInDays = `Expiry must be a whole number of days from ${INVITE_DAYS.min} to ${INVITE_DAYS.max}.`
  }
  let maxUses = 1
  if (values.multiUse) {
    maxUses = Number(values.maxUses)
    if (!/^\d+$/.test(values.maxUses.trim()) || maxUses < INVITE_USES.min || maxUses > INVITE_USES.max) {
      fields.maxUses = `Maximum uses must be a whole number from ${INVITE_USES.min} to ${INVITE_USES.max}.`
    }
  }
  if (Object.keys(fields).length) return { ok: false, fields }
  return { ok: true, input: { role: values.role, ...(values.cohortId ? { cohortId: values.cohortId } : {}), expiresInDays: days, maxUses } }
}

/** Where an invite stands, from its fields and the clock. */
export function inviteStatus(invite: Invite, now: Date): 'active' | 'revoked' | 'expired' | 'used up' {
  if (invite.revoked) return 'revoked'
  if (new Date(invite.expiresAt).getTime() <= now.getTime()) return 'expired'
  if (invite.uses >= invite.maxUses) return 'used up'
  return 'active'
}

/** A created invite's role, cohort, uses and expiry, as one line. */
function inviteTerms(invite: CreatedInvite): string {
  return `${roleLabels[invite.role]}${invite.cohort ? `, cohort ${invite.cohort.name}` : ''}; ${invite.maxUses === 1 ? 'single use' : `up to ${invite.maxUses} uses`}; expires ${formatDateTime(invite.expiresAt)}`
}

/** Invites (admins): create a link for a role and an optional cohort; list them with their uses; revoke. */
export function InvitesTab() {
  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <CreateInvite />
      <InviteList />
    </div>
  )
}

function CreateInvite() {
  const cohorts = useCohorts()
  const create = useCreateInvite()
  const [values, setValues] = useState<InviteFormValues>({
    role: 'learner',
    cohortId: '',
    expiresInDays: String(INVITE_DAYS.default),
    multiUse: false,
    maxUses: String(INVITE_USES.default),
  })
  const [errors, setErrors] = useState<{ fields: Partial<Record<InviteField, string>>; form?: string }>({ fields: {} })
  const [newest, setCreated] = useState<CreatedInvite | null>(null)
  // A link revoked in the list beside it is no longer offered for copying.
  const invites = useInvites()
  const created = newest && !invites.data?.some((i) => i.id === newest.id && i.revoked) ? newest : null
  const linkRef = useRef<HTMLInputElement>(null)

  // A new link takes focus, selected (CopyField selects on focus): Ctrl+C copies it at once, Tab reaches
  // its Copy button, and a screen reader reads the link with its terms. The form's status says it was made.
  useEffect(() => {
    if (created) linkRef.current?.focus()
  }, [created])

  const set = <K extends keyof InviteFormValues>(key: K, value: InviteFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }))
    setErrors((e) => ({ ...e, fields: { ...e.fields, [key]: undefined } }))
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const checked = checkInviteForm(values)
    if (!checked.ok) return setErrors({ fields: checked.fields })
    setErrors({ fields: {} })
    setCreated(null)
    create.mutate(checked.input, {
      onSuccess: setCreated,
      onError: (error) => setErrors(formErrors(error, inviteLabels)),
    })
  }

  return (
    <Panel title="Create an invite link" description="Anyone with the link can join your organisation with the role you choose until it expires or is used up.">
      <form noValidate onSubmit={submit} className="space-y-4" aria-label="Create an invite link">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Role" error={errors.fields.role}>
            {(p) => (
              <select {...p} className={selectClass} value={values.role} onChange={(e) => set('role', e.target.value as MemberRole)}>
                {memberRoleOptions.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField label="Cohort (optional)" error={errors.fields.cohortId}>
            {(p) => (
              <select {...p} className={selectClass} value={values.cohortId} onChange={(e) => set('cohortId', e.target.value)}>
                <option value="">No cohort</option>
                {(cohorts.data ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        </div>
        <FormField label="Expires after (days)" hint={`From ${INVITE_DAYS.min} to ${INVITE_DAYS.max} days.`} error={errors.fields.expiresInDays}>
          {(p) => (
            <Input {...p} name="expiresInDays" type="number" inputMode="numeric" min={INVITE_DAYS.min} max={INVITE_DAYS.max} value={values.expiresInDays} onChange={(e) => set('expiresInDays', e.target.value)} />
          )}
        </FormField>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-200">Uses</legend>
          <label className="flex items-center gap-2 text-sm text-slate-200">
            <input type="radio" name="uses" className="h-4 w-4 accent-amber-500" checked={!values.multiUse} onChange={() => set('multiUse', false)} />
            Single use (one person)
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-200">
            <input type="radio" name="uses" className="h-4 w-4 accent-amber-500" checked={values.multiUse} onChange={() => set('multiUse', true)} />
            Multi-use (a class or a team)
          </label>
        </fieldset>
        {values.multiUse && (
          <FormField label="Maximum uses" hint={`From ${INVITE_USES.min} to ${INVITE_USES.max}.`} error={errors.fields.maxUses}>
            {(p) => (
              <Input {...p} name="maxUses" type="number" inputMode="numeric" min={INVITE_USES.min} max={INVITE_USES.max} value={values.maxUses} onChange={(e) => set('maxUses', e.target.value)} />
            )}
          </FormField>
        )}
        <FormAlert
          error={errors.form}
          fieldErrors={[errors.fields.role, errors.fields.cohortId, errors.fields.expiresInDays, errors.fields.maxUses]}
          success={created ? 'Invite link created.' : undefined}
        />
        {/* Unavailable, not disabled, while it waits: a disabled button loses focus to the page. */}
        <Button type="submit" unavailable={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create invite link'}
        </Button>
      </form>
      {created && (
        <div className="mt-6 rounded-lg border border-amber-500/40 bg-amber-500/10 p-4" data-testid="new-invite">
          <CopyField ref={linkRef} label="New invite link" value={created.url} hint={`Shown only now: copy it before leaving. ${inviteTerms(created)}.`} />
        </div>
      )}
    </Panel>
  )
}

const statusVariant = { active: 'default', revoked: 'outline', expired: 'outline', 'used up': 'secondary' } as const

function InviteList() {
  const invites = useInvites()
  const revoke = useRevokeInvite()
  const [revoked, setRevoked] = useState<string | null>(null)
  // The invite whose Revoke was pressed, asked about in the dialog.
  const [confirming, setConfirming] = useState<{ invite: Invite; what: string } | null>(null)
  const list = useRef<HTMLUListElement>(null)
  const now = new Date()

  // The Revoke button pressed goes away with the invite's new status: once the dialog closes, focus
  // moves to the invite's title, which now reads "… invite Revoked", and the panel's status says it was done.
  // A ref, not the state: the dialog's content calls this as it unmounts, with the props of its last render.
  const justRevoked = useRef<string | null>(null)
  const focusRevoked = (event: Event) => {
    const id = justRevoked.current
    if (!id) return
    justRevoked.current = null
    event.preventDefault()
    const item = [...(list.current?.children ?? [])].find((li) => li instanceof HTMLElement && li.dataset.invite === id)
    item?.querySelector<HTMLElement>('[data-invite-title]')?.focus()
  }

  return (
    <Panel title="Invites" description="Every invite link of your organisation, newest first.">
      <FormAlert success={revoked ? 'Invite revoked: its link no longer works.' : undefined} className="mb-3" />
      {invites.isPending ? (
        <p role="status" className="text-slate-300">
          Loading invites…
        </p>
      ) : invites.isError ? (
        <LoadError what="the invites" error={invites.error} />
      ) : invites.data.length === 0 ? (
        <p className="text-slate-300">No invites yet.</p>
      ) : (
        <ul ref={list} className="divide-y divide-white/10" aria-label="Invites">
          {[...invites.data].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map((invite) => {
            const status = inviteStatus(invite, now)
            const what = `${roleLabels[invite.role]} invite${invite.cohort ? ` to ${invite.cohort.name}` : ''}`
            return (
              <li key={invite.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between" data-invite={invite.id}>
                <div className="min-w-0 space-y-1">
                  <p data-invite-title tabIndex={-1} className="flex flex-wrap items-center gap-2 font-semibold text-white outline-none">
                    {what}
                    <Badge variant={statusVariant[status]}>{status[0].toUpperCase() + status.slice(1)}</Badge>
                  </p>
                  <p className="text-sm text-slate-300">
                    {invite.uses} of {invite.maxUses} {invite.maxUses === 1 ? 'use' : 'uses'} · expires {formatDateTime(invite.expiresAt)}
                  </p>
                  <p className="text-xs text-slate-400">
                    Created {formatDateTime(invite.createdAt)} by {invite.createdBy.displayName}
                  </p>
                </div>
                {status === 'active' && (
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Revoke ${what}, created ${formatDateTime(invite.createdAt)}`}
                    onClick={() => {
                      setRevoked(null)
                      revoke.reset()
                      setConfirming({ invite, what })
                    }}
                  >
                    Revoke
                  </Button>
                )}
              </li>
            )
          })}
        </ul>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title="Revoke this invite?"
        description={
          confirming && (
            <>
              The {confirming.what.toLowerCase()}, created {formatDateTime(confirming.invite.createdAt)}, stops working at once for anyone who has not used it.
              Whoever joined with it stays. A new invite makes a new link.
            </>
          )
        }
        confirmLabel="Revoke invite"
        pendingLabel="Revoking…"
        cancelLabel="Keep it"
        pending={revoke.isPending}
        error={revoke.isError ? actionError(revoke.error, 'Could not revoke the invite.') : undefined}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (!confirming) return
          const id = confirming.invite.id
          revoke.mutate(id, {
            onSuccess: () => {
              justRevoked.current = id
              setRevoked(id)
              setConfirming(null)
            },
          })
        }}
        onCloseAutoFocus={focusRevoked}
      />
    </Panel>
  )
}
