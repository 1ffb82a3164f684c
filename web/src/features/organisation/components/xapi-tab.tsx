import { useState, type FormEvent } from 'react'
import { TriangleAlert } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { FormAlert, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import {
  XAPI_CREDENTIAL_NAME_MAX,
  useCreateXAPICredential,
  useRevokeXAPICredential,
  useXAPICredentials,
  xapiScopes,
  type CreatedXAPICredential,
  type CreateXAPICredentialInput,
  type XAPICredential,
} from '@/api/xapi'
import { formErrors } from '@/lib/form-errors'
import { CopyField } from './copy-field'
import { LoadError, Panel, actionError, formatDateTime } from './shared'

type CredentialField = 'name' | 'scopes'
type CredentialFormValues = { name: string; canRead: boolean; canWrite: boolean }

/** Checks the credential form as the server would: a name of 1..80 characters and at least one scope. */
export function checkCredentialForm(values: CredentialFormValues): { ok: true; input: CreateXAPICredentialInput } | { ok: false; fields: Partial<Record<CredentialField, string>> } {
  const fields: Partial<Record<CredentialField, string>> = {}
  const name = values.name.trim()
  // The server counts characters (code points), not UTF-16 units.
  const length = [...name].length
  if (length < 1 || length > XAPI_CREDENTIAL_NAME_MAX) fields.name = `Name must be 1 to ${XAPI_CREDENTIAL_NAME_MAX} characters.`
  if (!values.canRead && !values.canWrite) fields.scopes = 'Choose read, write or both.'
  if (Object.keys(fields).length) return { ok: false, fields }
  return { ok: true, input: { name, canRead: values.canRead, canWrite: values.canWrite } }
}

/** The Learning Record Store (admins): its endpoint, the credentials xAPI clients use, creating and revoking them. */
export function XAPITab() {
  const credentials = useXAPICredentials()
  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <Panel
        title="Learning Record Store (xAPI)"
        description="Course players and learning systems send and read xAPI statements here. Give each tool its own credential, so that one can be revoked without the others."
      >
        <div className="space-y-6">
          {credentials.data ? (
            <CopyField label="xAPI endpoint" value={credentials.data.endpoint} hint="Enter this as the LRS endpoint, with a key and secret below for Basic authentication." />
          ) : credentials.isPending ? (
            <p role="status" className="text-slate-300">
              Loading the endpoint…
            </p>
          ) : null}
          <CreateCredential />
        </div>
      </Panel>
      <CredentialList credentials={credentials} />
    </div>
  )
}

function CreateCredential() {
  const create = useCreateXAPICredential()
  const [values, setValues] = useState<CredentialFormValues>({ name: '', canRead: true, canWrite: true })
  const [errors, setErrors] = useState<{ fields: Partial<Record<CredentialField, string>>; form?: string }>({ fields: {} })
  const [created, setCreated] = useState<CreatedXAPICredential | null>(null)

  const set = <K extends keyof CredentialFormValues>(key: K, value: CredentialFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }))
    const field: CredentialField = key === 'name' ? 'name' : 'scopes'
    setErrors((e) => ({ ...e, fields: { ...e.fields, [field]: undefined } }))
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const checked = checkCredentialForm(values)
    if (!checked.ok) return setErrors({ fields: checked.fields })
    setErrors({ fields: {} })
    setCreated(null)
    create.mutate(checked.input, {
      onSuccess: (answer) => {
        setCreated(answer)
        setValues({ name: '', canRead: true, canWrite: true })
      },
      onError: (error) => setErrors(formErrors(error, { name: 'name' })),
    })
  }

  return (
    <div className="space-y-4">
      <h3 className="text-lg font-semibold text-white">Create a credential</h3>
      <form noValidate onSubmit={submit} className="space-y-4" aria-label="Create an xAPI credential">
        <FormField label="Name" hint={`What uses it, e.g. "Moodle" or "Welding course player". Up to ${XAPI_CREDENTIAL_NAME_MAX} characters.`} error={errors.fields.name}>
          {(p) => <Input {...p} name="name" autoComplete="off" maxLength={XAPI_CREDENTIAL_NAME_MAX * 2} value={values.name} onChange={(e) => set('name', e.target.value)} />}
        </FormField>
        <fieldset className="space-y-2" aria-describedby={errors.fields.scopes ? 'xapi-scopes-error' : undefined}>
          <legend className="text-sm font-medium text-slate-200">Allowed to</legend>
          <label className="flex items-center gap-2 text-sm text-slate-200">
            <input type="checkbox" name="canRead" className="h-4 w-4 accent-amber-500" checked={values.canRead} onChange={(e) => set('canRead', e.target.checked)} />
            Read statements and documents
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-200">
            <input type="checkbox" name="canWrite" className="h-4 w-4 accent-amber-500" checked={values.canWrite} onChange={(e) => set('canWrite', e.target.checked)} />
            Write statements and documents
          </label>
          {errors.fields.scopes && (
            <p id="xapi-scopes-error" className="text-sm text-red-300">
              {errors.fields.scopes}
            </p>
          )}
        </fieldset>
        <FormAlert error={errors.form} fieldErrors={[errors.fields.name, errors.fields.scopes]} />
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create credential'}
        </Button>
      </form>
      {created && (
        <div className="space-y-4 rounded-lg border border-amber-500/40 bg-amber-500/10 p-4" data-testid="new-xapi-credential">
          <p className="flex items-start gap-2 text-sm font-semibold text-amber-100" role="status">
            <TriangleAlert aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
            Copy the secret of “{created.credential.name}” now: it will not be shown again. Only a fingerprint of it is kept; if it is lost, revoke this credential and create another.
          </p>
          <CopyField label="Key" value={created.credential.key} />
          <CopyField label="Secret" value={created.secret} />
          <Button type="button" variant="outline" size="sm" onClick={() => setCreated(null)}>
            I have copied it
          </Button>
        </div>
      )}
    </div>
  )
}

function CredentialList({ credentials }: { credentials: ReturnType<typeof useXAPICredentials> }) {
  const [error, setError] = useState('')
  const [notice, setNotice] = useState('')
  const [revoking, setRevoking] = useState<XAPICredential | null>(null)

  return (
    <Panel title="xAPI credentials" description="Every credential of your organisation, newest first. A revoked one is refused at once and for good.">
      <FormAlert error={error} success={notice} className="mb-3" />
      {credentials.isPending ? (
        <p role="status" className="text-slate-300">
          Loading credentials…
        </p>
      ) : credentials.isError ? (
        <LoadError what="the xAPI credentials" error={credentials.error} />
      ) : credentials.data.credentials.length === 0 ? (
        <p className="text-slate-300">No credentials yet.</p>
      ) : (
        <ul className="divide-y divide-white/10" aria-label="xAPI credentials">
          {credentials.data.credentials.map((c) => (
            <li key={c.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between" data-xapi-credential={c.id}>
              <div className="min-w-0 space-y-1">
                <p className="flex flex-wrap items-center gap-2 font-semibold text-white">
                  <span className="break-words">{c.name}</span>
                  <Badge variant="secondary">{xapiScopes(c)}</Badge>
                  {c.revokedAt && <Badge variant="outline">Revoked</Badge>}
                </p>
                <p className="text-sm text-slate-300">
                  Key <code className="break-all font-mono text-slate-100">{c.key}</code>
                </p>
                <p className="text-xs text-slate-400">
                  Created {formatDateTime(c.createdAt)}
                  {c.revokedAt && ` · revoked ${formatDateTime(c.revokedAt)}`}
                </p>
              </div>
              {!c.revokedAt && (
                <Button
                  variant="outline"
                  size="sm"
                  className="self-start sm:self-center"
                  aria-label={`Revoke ${c.name} (key ${c.key})`}
                  onClick={() => {
                    setError('')
                    setNotice('')
                    setRevoking(c)
                  }}
                >
                  Revoke
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <RevokeDialog
        credential={revoking}
        onClose={() => setRevoking(null)}
        onRevoked={(c) => setNotice(`${c.name} is revoked: its key is refused from now on.`)}
        onError={setError}
      />
    </Panel>
  )
}

function RevokeDialog({
  credential,
  onClose,
  onRevoked,
  onError,
}: {
  credential: XAPICredential | null
  onClose: () => void
  onRevoked: (c: XAPICredential) => void
  onError: (message: string) => void
}) {
  const revoke = useRevokeXAPICredential()
  return (
    <Dialog open={!!credential} onOpenChange={(open) => !open && onClose()}>
      {credential && (
        <DialogContent>
          <DialogTitle>Revoke {credential.name}?</DialogTitle>
          <DialogDescription>
            Tools using the key {credential.key} can no longer send or read statements. This cannot be undone; statements already stored are kept.
          </DialogDescription>
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            <DialogClose asChild>
              <Button variant="ghost">Cancel</Button>
            </DialogClose>
            <Button
              variant="destructive"
              disabled={revoke.isPending}
              // mutateAsync: the list refetches and may unmount this row's state with mutate's callbacks.
              onClick={() =>
                revoke.mutateAsync(credential.id).then(
                  () => {
                    onClose()
                    onRevoked(credential)
                  },
                  (err: unknown) => {
                    onClose()
                    onError(actionError(err, 'Could not revoke the credential.'))
                  },
                )
              }
            >
              Revoke credential
            </Button>
          </div>
        </DialogContent>
      )}
    </Dialog>
  )
}
