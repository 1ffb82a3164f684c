import { useState, type FormEvent } from 'react'
import { TriangleAlert } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { FormAlert, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import {
  XAPI_CREDENTIAL_NAME_MAX,
  XAPI_FORWARDING_ENDPOINT_MAX,
  XAPI_FORWARDING_KEY_MAX,
  XAPI_FORWARDING_SECRET_MAX,
  XAPI_VERSIONS,
  forwardingFailing,
  useCreateXAPICredential,
  useDeleteXAPIForwarding,
  usePauseXAPIForwarding,
  useRevokeXAPICredential,
  useSetXAPIForwarding,
  useXAPICredentials,
  useXAPIForwarding,
  xapiScopes,
  type CreatedXAPICredential,
  type CreateXAPICredentialInput,
  type XAPICredential,
  type XAPIForwarding,
  type XAPIForwardingInput,
  type XAPIVersion,
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
      <div className="xl:col-span-2">
        <ForwardingPanel />
      </div>
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

type ForwardingField = 'endpoint' | 'key' | 'secret' | 'version'
type ForwardingFormValues = { endpoint: string; key: string; secret: string; version: XAPIVersion }

/** An endpoint as the server stores it: trimmed, with one trailing slash; null when it is no http(s) URL. */
export function normalizeEndpoint(endpoint: string): string | null {
  let url: URL
  try {
    url = new URL(endpoint.trim())
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}/`
}

/**
 * Checks the forwarding form as the server would. The secret may stay empty only while endpoint and key are the
 * stored ones: the server keeps the secret it has, and never sends it to another address or under another key.
 */
export function checkForwardingForm(
  values: ForwardingFormValues,
  current: Pick<XAPIForwarding, 'configured' | 'endpoint' | 'key'> | undefined,
): { ok: true; input: XAPIForwardingInput } | { ok: false; fields: Partial<Record<ForwardingField, string>> } {
  const fields: Partial<Record<ForwardingField, string>> = {}
  const raw = values.endpoint.trim()
  const endpoint = normalizeEndpoint(raw)
  if (!raw) fields.endpoint = 'Enter the external LRS’s address, like https://lrs.example.org/xapi/.'
  else if (raw.length > XAPI_FORWARDING_ENDPOINT_MAX) fields.endpoint = `The address must be at most ${XAPI_FORWARDING_ENDPOINT_MAX} characters.`
  else if (!endpoint) fields.endpoint = 'Enter an address starting with https:// or http://.'
  else if (/^[a-z]+:\/\/[^/]*@/i.test(raw)) fields.endpoint = 'Give the user name and password as key and secret, not in the address.'
  else if (/[?#]/.test(raw)) fields.endpoint = 'The address must not have a query (?) or fragment (#).'
  const key = values.key
  if (!key.trim()) fields.key = 'Enter the key the external LRS gave you.'
  else if ([...key].length > XAPI_FORWARDING_KEY_MAX) fields.key = `The key must be at most ${XAPI_FORWARDING_KEY_MAX} characters.`
  else if (key.includes(':')) fields.key = 'The key cannot contain a colon (HTTP Basic cannot send it).'
  const keepSecret = !!current?.configured && endpoint === current.endpoint && key === current.key
  if (!values.secret) {
    if (!keepSecret) fields.secret = current?.configured ? 'Enter the secret again: the address or key changed.' : 'Enter the secret the external LRS gave you.'
  } else if ([...values.secret].length > XAPI_FORWARDING_SECRET_MAX) fields.secret = `The secret must be at most ${XAPI_FORWARDING_SECRET_MAX} characters.`
  if (!XAPI_VERSIONS.includes(values.version)) fields.version = 'Choose the version the external LRS speaks.'
  if (Object.keys(fields).length || !endpoint) return { ok: false, fields }
  const input: XAPIForwardingInput = { endpoint, key, version: values.version }
  if (values.secret) input.secret = values.secret
  return { ok: true, input }
}

/** Forwarding every statement to the organisation's external LRS: its setting, its progress, pause and stop. */
function ForwardingPanel() {
  const forwarding = useXAPIForwarding()
  return (
    <Panel
      title="Forward to an external LRS"
      description="Every statement stored here is also sent, in order, to your organisation’s own Learning Record Store. If it cannot be reached, statements wait here and are sent when it is back: none is lost or sent twice."
    >
      {forwarding.isPending ? (
        <p role="status" className="text-slate-300">
          Loading the forwarding…
        </p>
      ) : forwarding.isError ? (
        <LoadError what="the forwarding" error={forwarding.error} />
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          {forwarding.data.configured ? <ForwardingStatus status={forwarding.data} /> : <p className="text-slate-300">Statements are not forwarded anywhere.</p>}
          <ForwardingForm current={forwarding.data} />
        </div>
      )}
    </Panel>
  )
}

function ForwardingStatus({ status }: { status: XAPIForwarding }) {
  const pause = usePauseXAPIForwarding()
  const [error, setError] = useState('')
  const [stopping, setStopping] = useState(false)
  const failing = forwardingFailing(status)
  const waiting = status.queueLength === 1 ? '1 statement' : `${status.queueLength.toLocaleString()} statements`
  return (
    <section aria-label="Forwarding status" className="space-y-4">
      <p className="flex flex-wrap items-center gap-2 text-white">
        <span className="break-all font-mono text-sm">{status.endpoint}</span>
        <Badge variant="secondary">xAPI {status.version}</Badge>
        {status.paused ? <Badge variant="outline">Paused</Badge> : failing ? <Badge variant="live">Failing</Badge> : <Badge>Forwarding</Badge>}
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-400">Key</dt>
        <dd className="break-all font-mono text-slate-100">{status.key}</dd>
        <dt className="text-slate-400">Waiting to be sent</dt>
        <dd className="text-slate-100" data-testid="forwarding-queue">
          {waiting}
        </dd>
        <dt className="text-slate-400">Sent through</dt>
        <dd className="text-slate-100">{status.forwardedThrough ? `statements stored up to ${formatDateTime(status.forwardedThrough)}` : 'none yet'}</dd>
        <dt className="text-slate-400">Last success</dt>
        <dd className="text-slate-100">{status.lastSuccessAt ? formatDateTime(status.lastSuccessAt) : 'never'}</dd>
        {failing && !status.paused && status.nextAttemptAt && (
          <>
            <dt className="text-slate-400">Next attempt</dt>
            <dd className="text-slate-100">{formatDateTime(status.nextAttemptAt)}</dd>
          </>
        )}
      </dl>
      {failing && status.lastErrorAt && (
        <p role="alert" className="rounded-md border border-red-500/40 bg-red-500/10 px-3 py-2 text-sm text-red-200">
          The last attempt, {formatDateTime(status.lastErrorAt)}, failed: {status.lastError}. Statements wait here and are retried; nothing is skipped.
        </p>
      )}
      <FormAlert error={error} />
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={pause.isPending}
          onClick={() => {
            setError('')
            pause.mutate(!status.paused, { onError: (err) => setError(actionError(err, 'Could not change the forwarding.')) })
          }}
        >
          {status.paused ? 'Resume forwarding' : 'Pause forwarding'}
        </Button>
        <Button variant="outline" size="sm" onClick={() => setStopping(true)}>
          Stop forwarding
        </Button>
      </div>
      <StopForwardingDialog open={stopping} onClose={() => setStopping(false)} onError={setError} />
    </section>
  )
}

function StopForwardingDialog({ open, onClose, onError }: { open: boolean; onClose: () => void; onError: (message: string) => void }) {
  const remove = useDeleteXAPIForwarding()
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      {open && (
        <DialogContent>
          <DialogTitle>Stop forwarding?</DialogTitle>
          <DialogDescription>
            No more statements are sent, and the progress is forgotten: set up again, forwarding starts over from your organisation’s first statement. To
            stop for a while instead, pause.
          </DialogDescription>
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            <DialogClose asChild>
              <Button variant="ghost">Cancel</Button>
            </DialogClose>
            <Button
              variant="destructive"
              disabled={remove.isPending}
              onClick={() =>
                remove.mutateAsync().then(onClose, (err: unknown) => {
                  onClose()
                  onError(actionError(err, 'Could not stop the forwarding.'))
                })
              }
            >
              Stop forwarding
            </Button>
          </div>
        </DialogContent>
      )}
    </Dialog>
  )
}

function ForwardingForm({ current }: { current: XAPIForwarding }) {
  const save = useSetXAPIForwarding()
  const initial = (): ForwardingFormValues => ({
    endpoint: current.endpoint,
    key: current.key,
    secret: '',
    version: current.version === '' ? '2.0.0' : current.version,
  })
  const [values, setValues] = useState<ForwardingFormValues>(initial)
  const [errors, setErrors] = useState<{ fields: Partial<Record<ForwardingField, string>>; form?: string }>({ fields: {} })
  const [notice, setNotice] = useState('')

  const set = <K extends ForwardingField>(key: K, value: ForwardingFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }))
    setErrors((e) => ({ ...e, fields: { ...e.fields, [key]: undefined } }))
    setNotice('')
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const checked = checkForwardingForm(values, current)
    if (!checked.ok) return setErrors({ fields: checked.fields })
    setErrors({ fields: {} })
    save.mutate(checked.input, {
      onSuccess: (status) => {
        setValues((v) => ({ ...v, endpoint: status.endpoint, secret: '' }))
        setNotice(current.configured ? 'Saved: forwarding goes on with the new setting.' : 'Saved: your statements are on their way, from the first.')
      },
      onError: (error) => setErrors(formErrors(error, { endpoint: 'endpoint', key: 'key', secret: 'secret', version: 'version' })),
    })
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-4" aria-label="External LRS">
      <FormField label="Endpoint" hint="The external LRS’s xAPI address, e.g. https://lrs.example.org/xapi/" error={errors.fields.endpoint}>
        {(p) => <Input {...p} name="endpoint" type="url" autoComplete="off" value={values.endpoint} onChange={(e) => set('endpoint', e.target.value)} />}
      </FormField>
      <FormField label="Key" error={errors.fields.key}>
        {(p) => <Input {...p} name="key" autoComplete="off" value={values.key} onChange={(e) => set('key', e.target.value)} />}
      </FormField>
      <FormField
        label="Secret"
        hint={current.configured ? 'Leave empty to keep the stored secret (only while endpoint and key stay the same). It is never shown.' : 'Stored encrypted; never shown again.'}
        error={errors.fields.secret}
      >
        {(p) => <Input {...p} name="secret" type="password" autoComplete="new-password" value={values.secret} onChange={(e) => set('secret', e.target.value)} />}
      </FormField>
      <fieldset className="space-y-2" aria-describedby={errors.fields.version ? 'xapi-version-error' : undefined}>
        <legend className="text-sm font-medium text-slate-200">xAPI version it speaks</legend>
        {XAPI_VERSIONS.map((v) => (
          <label key={v} className="flex items-center gap-2 text-sm text-slate-200">
            <input type="radio" name="version" className="h-4 w-4 accent-amber-500" checked={values.version === v} onChange={() => set('version', v)} />
            {v === '2.0.0' ? '2.0.0 (IEEE 9274.1.1)' : '1.0.3'}
          </label>
        ))}
        {errors.fields.version && (
          <p id="xapi-version-error" className="text-sm text-red-300">
            {errors.fields.version}
          </p>
        )}
      </fieldset>
      <FormAlert error={errors.form} success={notice} fieldErrors={[errors.fields.endpoint, errors.fields.key, errors.fields.secret, errors.fields.version]} />
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : current.configured ? 'Save' : 'Start forwarding'}
      </Button>
    </form>
  )
}
