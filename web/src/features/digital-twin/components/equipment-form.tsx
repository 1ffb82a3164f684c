import { useEffect, useId, useMemo, useState } from 'react'
import { Link } from 'wouter'
import { Controller, useFieldArray, useForm, useWatch, type FieldPath } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Plus, Trash2 } from 'lucide-react'
import { useTrades } from '@/api/catalog'
import { useTradeName } from '../hooks/use-trade-name'
import { useCreateEquipment, useUpdateEquipment, type Equipment } from '@/api/twin'
import { Button, buttonVariants } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { FormAlert, FormField, selectClass } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import { useRecheckIdentityOnRefusal } from '../hooks/use-drive-access'
import { PROTOCOLS, SECURITY_MODES, SECURITY_POLICIES, SENSORS, addressExamples, protocolLabels, type Protocol } from '../lib/connection'
import { FREQUENCIES, equipmentFormSchema, equipmentInput, errorAt, hasWritableSensors, type EquipmentFormApi, type EquipmentFormValues } from '../lib/equipment-form'
import { placeRequestError } from '../lib/server-errors'
import { ConnectionTest } from './connection-test'
import { PointMap } from './point-map'

type EquipmentFieldName = FieldPath<EquipmentFormValues>

/** Every message of the form in page order, for the form's alert to read out. */
function allMessages(errors: unknown, out: string[] = []): string[] {
  if (!errors || typeof errors !== 'object') return out
  const e = errors as Record<string, unknown>
  if (typeof e.message === 'string' && 'type' in e) out.push(e.message)
  for (const [k, v] of Object.entries(e)) if (k !== 'ref' && k !== 'message' && k !== 'type' && k !== 'types') allMessages(v, out)
  return out
}

const legendClass = 'text-lg font-semibold text-white'
const sectionClass = 'space-y-4 rounded-xl border border-white/10 bg-slate-900/60 p-4 sm:p-5'

/**
 * A twin's editor: who it is, which trades it serves, its maintenance
 * schedule, how it is reached (the demo device, or a real one with its
 * address, options and point map, which can be tested before it is saved).
 * Saves through the API; the caller goes back to the list when onSaved runs.
 */
export function EquipmentForm({ equipment, defaultValues, onSaved }: { equipment: Equipment | null; defaultValues: EquipmentFormValues; onSaved: (saved: Equipment) => void }) {
  // Each field is checked when it loses focus (and, after a save, as it changes). Not onTouched: with it, a row
  // just added to a list would show its empty fields' errors at once.
  // The trades are checked against the catalog's once it has loaded (useForm takes a new resolver on every render).
  const trades = useTrades()
  const resolver = useMemo(() => zodResolver(equipmentFormSchema(trades.data ? trades.data.map((t) => t.id) : null)), [trades.data])
  const form = useForm<EquipmentFormValues>({ resolver, defaultValues, mode: 'onBlur' })
  const { register, control, handleSubmit, setError, formState } = form
  // A field showing an error is checked again as it changes, so the error goes as soon as it is put right.
  const { subscribe, getFieldState, trigger } = form
  useEffect(
    () =>
      subscribe({
        formState: { values: true },
        callback: ({ name, type }) => {
          if (type === 'change' && name && getFieldState(name as EquipmentFieldName).error) void trigger(name as EquipmentFieldName)
        },
      }),
    [subscribe, getFieldState, trigger],
  )
  const { errors, isSubmitting } = formState
  const create = useCreateEquipment()
  const update = useUpdateEquipment()
  const recheckIdentity = useRecheckIdentityOnRefusal()
  const [topError, setTopError] = useState<string>()
  const protocol = useWatch({ control, name: 'communicationProtocol' })
  const realDevice = useWatch({ control, name: 'realDevice' })
  const id = useId()

  const submit = handleSubmit(async (values) => {
    setTopError(undefined)
    const input = equipmentInput(values)
    try {
      const saved = equipment ? await update.mutateAsync({ id: equipment.id, input }) : await create.mutateAsync(input)
      onSaved(saved)
    } catch (error) {
      recheckIdentity(error)
      const placed = placeRequestError(error, values)
      if (placed.field) setError(placed.field as EquipmentFieldName, { type: 'server', message: placed.message }, { shouldFocus: true })
      else setTopError(placed.message)
    }
  })

  const err = (path: string) => errorAt(errors, path)

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-6" aria-labelledby="manage-view-heading">
      <fieldset className={sectionClass}>
        <legend className={`${legendClass} float-left mb-2 w-full`}>Equipment</legend>
        <div className="clear-both grid gap-4 sm:grid-cols-2">
          <FormField label="Name" error={err('name')} name="name">
            {(p) => <Input {...p} {...register('name')} autoComplete="off" />}
          </FormField>
          <FormField label="Type" hint="Lower-case words joined by hyphens: panelboard, chiller, booster-pump…" error={err('type')} name="type">
            {(p) => <Input {...p} {...register('type')} autoComplete="off" />}
          </FormField>
          <FormField label="Manufacturer" error={err('manufacturer')} name="manufacturer">
            {(p) => <Input {...p} {...register('manufacturer')} autoComplete="off" />}
          </FormField>
          <FormField label="Model" error={err('model')} name="model">
            {(p) => <Input {...p} {...register('model')} autoComplete="off" />}
          </FormField>
          <FormField label="Serial number" error={err('serialNumber')} name="serialNumber">
            {(p) => <Input {...p} {...register('serialNumber')} autoComplete="off" />}
          </FormField>
        </div>
      </fieldset>

      <TradesField form={form} />
      <MaintenanceSchedule form={form} />

      <fieldset className={sectionClass}>
        <legend className={`${legendClass} float-left mb-2 w-full`}>Connection</legend>
        <div className="clear-both grid gap-4 sm:grid-cols-2">
          <FormField label="Communication protocol" error={err('communicationProtocol')} name="communicationProtocol">
            {(p) => (
              <select {...p} {...register('communicationProtocol')} className={selectClass}>
                {PROTOCOLS.map((k) => (
                  <option key={k} value={k}>
                    {protocolLabels[k]}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <div className="space-y-1.5">
            <div className="flex items-center gap-3 sm:pt-7">
              <Controller
                control={control}
                name="realDevice"
                render={({ field }) => (
                  <Switch id={`${id}-real`} checked={field.value} onCheckedChange={field.onChange} onBlur={field.onBlur} ref={field.ref} aria-describedby={`${id}-real-hint`} />
                )}
              />
              <Label htmlFor={`${id}-real`}>Connect to a real device</Label>
            </div>
            <p id={`${id}-real-hint`} className="text-xs text-slate-300">
              {realDevice ? 'The gateway reads the device below.' : 'Off: the built-in demo device serves this twin.'}
            </p>
          </div>
        </div>
        {realDevice ? (
          <DeviceFields form={form} protocol={protocol} equipmentId={equipment?.id} storedProtocol={equipment?.connection ? equipment.communicationProtocol : null} />
        ) : (
          hasWritableSensors({ communicationProtocol: protocol, realDevice }) && <WritableSensors form={form} />
        )}
      </fieldset>

      <FormAlert error={topError} fieldErrors={allMessages(errors)} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : 'Save'}
        </Button>
        <Link href="/digital-twin/manage" className={buttonVariants({ variant: 'ghost' })}>
          Cancel
        </Link>
      </div>
    </form>
  )
}

/** The trades a twin serves: the catalog's, and any the twin already names that the catalog does not. */
function TradesField({ form }: { form: EquipmentFormApi }) {
  const trades = useTrades()
  const id = useId()
  const chosen = useWatch({ control: form.control, name: 'supportedTradeTypes' })
  const known = trades.data ?? []
  const options = [...known.map((t) => ({ id: t.id, name: t.name })), ...chosen.filter((c) => !known.some((t) => t.id === c)).map((c) => ({ id: c, name: c }))]
  const error = errorAt(form.formState.errors, 'supportedTradeTypes')
  return (
    <fieldset className={sectionClass} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className={`${legendClass} float-left mb-2 w-full`}>Trades</legend>
      <p className="clear-both text-sm text-slate-300">The trades that train on this machine.</p>
      {trades.isPending && (
        <p role="status" className="text-sm text-slate-300">
          Loading trades…
        </p>
      )}
      {trades.isError && <p className="text-sm text-red-300">Could not load the trades; the ones already chosen stay.</p>}
      <Controller
        control={form.control}
        name="supportedTradeTypes"
        render={({ field }) => (
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {options.map((t) => {
              const checked = field.value.includes(t.id)
              return (
                <li key={t.id} className="flex items-center gap-3">
                  <Checkbox
                    id={`${id}-${t.id}`}
                    checked={checked}
                    onCheckedChange={(on) => field.onChange(on === true ? [...field.value, t.id] : field.value.filter((v) => v !== t.id))}
                  />
                  <Label htmlFor={`${id}-${t.id}`}>{t.name}</Label>
                </li>
              )
            })}
          </ul>
        )}
      />
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-300">
          {error}
        </p>
      )}
    </fieldset>
  )
}

/** The schedule's interval and its tasks, one row each. */
function MaintenanceSchedule({ form }: { form: EquipmentFormApi }) {
  const { register, control, formState } = form
  const tasks = useFieldArray({ control, name: 'maintenanceSchedule.tasks' })
  const trades = useTrades()
  const chosen = useWatch({ control, name: 'supportedTradeTypes' })
  const tradeOptions = [...new Set([...chosen, ...(trades.data ?? []).map((t) => t.id)])]
  const tradeName = useTradeName()
  const err = (path: string) => errorAt(formState.errors, path)
  const listError = err('maintenanceSchedule.tasks')

  return (
    <fieldset className={sectionClass}>
      <legend className={`${legendClass} float-left mb-2 w-full`}>Maintenance schedule</legend>
      <div className="clear-both max-w-xs">
        <FormField label="Interval (days)" hint="Days from one maintenance to the next." error={err('maintenanceSchedule.intervalDays')} name="maintenanceSchedule.intervalDays">
          {(p) => <Input {...p} {...register('maintenanceSchedule.intervalDays')} inputMode="numeric" />}
        </FormField>
      </div>
      {tasks.fields.length > 0 && (
        <ol className="space-y-3">
          {tasks.fields.map((f, i) => (
            <li key={f.id}>
              <fieldset className="grid gap-3 rounded-lg border border-white/10 p-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-end">
                <legend className="sr-only">Task {i + 1}</legend>
                <FormField label={`Task ${i + 1}`} error={err(`maintenanceSchedule.tasks.${i}.task`)} name={`maintenanceSchedule.tasks.${i}.task`}>
                  {(p) => <Input {...p} {...register(`maintenanceSchedule.tasks.${i}.task`)} />}
                </FormField>
                <FormField label="Frequency" error={err(`maintenanceSchedule.tasks.${i}.frequency`)} name={`maintenanceSchedule.tasks.${i}.frequency`}>
                  {(p) => (
                    <select {...p} {...register(`maintenanceSchedule.tasks.${i}.frequency`)} className={selectClass}>
                      {/* A stored frequency the list no longer has stays visible, marked by its error. */}
                      {[...new Set([...FREQUENCIES, f.frequency])].filter(Boolean).map((q) => (
                        <option key={q}>{q}</option>
                      ))}
                    </select>
                  )}
                </FormField>
                <FormField label="Trade" error={err(`maintenanceSchedule.tasks.${i}.trade`)} name={`maintenanceSchedule.tasks.${i}.trade`}>
                  {(p) => (
                    <select {...p} {...register(`maintenanceSchedule.tasks.${i}.trade`)} className={selectClass}>
                      <option value="">Choose a trade</option>
                      {[...new Set([...tradeOptions, f.trade])].filter(Boolean).map((t) => (
                        <option key={t} value={t}>
                          {tradeName(t)}
                        </option>
                      ))}
                    </select>
                  )}
                </FormField>
                <Button variant="ghost" aria-label={`Remove task ${i + 1}`} onClick={() => tasks.remove(i)} className="justify-self-start">
                  <Trash2 aria-hidden="true" />
                  Remove
                </Button>
              </fieldset>
            </li>
          ))}
        </ol>
      )}
      {listError && <p className="text-sm text-red-300">{listError}</p>}
      <Button variant="outline" onClick={() => tasks.append({ task: '', frequency: 'monthly', trade: chosen[0] ?? trades.data?.[0]?.id ?? '' }, { shouldFocus: true })}>
        <Plus aria-hidden="true" />
        Add task
      </Button>
    </fieldset>
  )
}

/** The device's address and the protocol's options, then the point map. */
function DeviceFields({
  form,
  protocol,
  equipmentId,
  storedProtocol,
}: {
  form: EquipmentFormApi
  protocol: Protocol
  equipmentId: string | undefined
  /** The protocol of the connection stored for the twin: its password is kept only for the same protocol. */
  storedProtocol: string | null | undefined
}) {
  const { register, formState, control } = form
  const err = (path: string) => errorAt(formState.errors, path)
  const keepsPassword = useWatch({ control, name: 'connection.hasPassword' }) && storedProtocol === protocol
  const credentials = protocol === 'OPC-UA' || protocol === 'MQTT'
  const intervalLabel = protocol === 'OPC-UA' ? 'Publishing interval (ms)' : protocol === 'MQTT' ? 'Interval (ms)' : 'Poll interval (ms)'
  const addressHint = {
    'Modbus TCP': `host:port, such as ${addressExamples['Modbus TCP']}`,
    'OPC-UA': `The endpoint URL, such as ${addressExamples['OPC-UA']}`,
    'EtherNet/IP': `host:port, such as ${addressExamples['EtherNet/IP']}`,
    MQTT: `The broker URL, such as ${addressExamples.MQTT}`,
  }[protocol]

  return (
    <div className="space-y-5">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <FormField label="Address" hint={addressHint} error={err('connection.address')} name="connection.address" className="sm:col-span-2 lg:col-span-1">
          {(p) => <Input {...p} {...register('connection.address')} autoComplete="off" spellCheck={false} />}
        </FormField>
        {protocol === 'Modbus TCP' && (
          <FormField label="Unit id" hint="The Modbus unit (slave) id, 0 to 255." error={err('connection.unitId')} name="connection.unitId">
            {(p) => <Input {...p} {...register('connection.unitId')} inputMode="numeric" />}
          </FormField>
        )}
        {protocol === 'OPC-UA' && (
          <>
            <FormField label="Security policy" error={err('connection.securityPolicy')} name="connection.securityPolicy">
              {(p) => (
                <select {...p} {...register('connection.securityPolicy')} className={selectClass}>
                  {SECURITY_POLICIES.map((s) => (
                    <option key={s}>{s}</option>
                  ))}
                </select>
              )}
            </FormField>
            <FormField label="Security mode" hint="None with policy None; Sign or SignAndEncrypt otherwise." error={err('connection.securityMode')} name="connection.securityMode">
              {(p) => (
                <select {...p} {...register('connection.securityMode')} className={selectClass}>
                  {SECURITY_MODES.map((s) => (
                    <option key={s}>{s}</option>
                  ))}
                </select>
              )}
            </FormField>
          </>
        )}
        {protocol === 'EtherNet/IP' && (
          <FormField label="CIP path (optional)" hint="Port,link pairs to the controller, such as 1,0 (backplane, slot 0)." error={err('connection.cipPath')} name="connection.cipPath">
            {(p) => <Input {...p} {...register('connection.cipPath')} autoComplete="off" spellCheck={false} />}
          </FormField>
        )}
        {protocol === 'MQTT' && (
          <FormField label="Topic" hint="Where the device publishes its JSON readings." error={err('connection.topic')} name="connection.topic">
            {(p) => <Input {...p} {...register('connection.topic')} autoComplete="off" spellCheck={false} />}
          </FormField>
        )}
        {credentials && (
          <>
            <FormField label="Username (optional)" error={err('connection.username')} name="connection.username">
              {(p) => <Input {...p} {...register('connection.username')} autoComplete="off" spellCheck={false} />}
            </FormField>
            <FormField
              label="Password (optional)"
              hint={keepsPassword ? 'A password is stored; leave this empty to keep it.' : undefined}
              error={err('connection.password')}
              name="connection.password"
            >
              {(p) => <Input {...p} {...register('connection.password')} type="password" autoComplete="new-password" />}
            </FormField>
          </>
        )}
        <FormField label={intervalLabel} hint="100 to 3,600,000 ms." error={err('connection.intervalMs')} name="connection.intervalMs">
          {(p) => <Input {...p} {...register('connection.intervalMs')} inputMode="numeric" />}
        </FormField>
        <FormField label="Timeout (ms)" hint="50 to 60,000 ms for each exchange." error={err('connection.timeoutMs')} name="connection.timeoutMs">
          {(p) => <Input {...p} {...register('connection.timeoutMs')} inputMode="numeric" />}
        </FormField>
      </div>
      <PointMap form={form} protocol={protocol} />
      <ConnectionTest form={form} protocol={protocol} equipmentId={equipmentId} />
    </div>
  )
}

/** The demo device's OPC UA variables a signed-in OPC UA client may write. */
function WritableSensors({ form }: { form: EquipmentFormApi }) {
  const id = useId()
  return (
    <fieldset className="space-y-3">
      <legend className="font-semibold text-white">Writable sensors</legend>
      <p className="text-sm text-slate-300">A signed-in OPC UA client may write these variables of the demo device; a write is stored as the twin’s reading.</p>
      <Controller
        control={form.control}
        name="writableSensors"
        render={({ field }) => (
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            {SENSORS.map((s) => (
              <li key={s.key} className="flex items-center gap-3">
                <Checkbox
                  id={`${id}-${s.key}`}
                  checked={field.value.includes(s.key)}
                  onCheckedChange={(on) => field.onChange(on === true ? [...field.value, s.key] : field.value.filter((v) => v !== s.key))}
                />
                <Label htmlFor={`${id}-${s.key}`}>
                  {s.name} ({s.unit})
                </Label>
              </li>
            ))}
          </ul>
        )}
      />
      {errorAt(form.formState.errors, 'writableSensors') && <p className="text-sm text-red-300">{errorAt(form.formState.errors, 'writableSensors')}</p>}
    </fieldset>
  )
}
