import { useId, useState } from 'react'
import type { FieldPath } from 'react-hook-form'
import { PlugZap } from 'lucide-react'
import { useTestConnection, type ConnectionTestResult } from '@/api/twin'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'
import { useRecheckIdentityOnRefusal } from '../hooks/use-drive-access'
import { sensorName, type Protocol } from '../lib/connection'
import { formatNumber } from '../lib/equipment'
import { connectionInput, type EquipmentFormApi, type EquipmentFormValues } from '../lib/equipment-form'
import { placeRequestError } from '../lib/server-errors'

/**
 * "Test connection": reads each mapped point once from the device with the
 * connection as typed, before anything is saved. A twin being edited sends
 * its id, so the stored password is used when none is typed.
 */
export function ConnectionTest({ form, protocol, equipmentId }: { form: EquipmentFormApi; protocol: Protocol; equipmentId: string | undefined }) {
  const test = useTestConnection()
  const recheckIdentity = useRecheckIdentityOnRefusal()
  const [note, setNote] = useState<string>()
  const id = useId()

  const run = async () => {
    setNote(undefined)
    test.reset()
    if (!(await form.trigger(['communicationProtocol', 'connection'], { shouldFocus: true }))) {
      setNote('Not tested: correct the marked connection fields first.')
      return
    }
    const values = form.getValues()
    test.mutate(
      { communicationProtocol: protocol, connection: connectionInput(protocol, values.connection), ...(equipmentId ? { equipmentId } : {}) },
      {
        onError: (error) => {
          recheckIdentity(error)
          const placed = placeRequestError(error, values)
          // A field the server named is marked too, as a save would mark it.
          if (placed.field) form.setError(placed.field as FieldPath<EquipmentFormValues>, { type: 'server', message: placed.message }, { shouldFocus: true })
          setNote(`Not tested: ${placed.message}`)
        },
      },
    )
  }

  const result = test.data
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3 rounded-lg border border-white/10 bg-slate-950/40 p-3 sm:p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id={`${id}-heading`} className="font-semibold text-white">
          Connection test
        </h3>
        <Button variant="secondary" onClick={() => void run()} disabled={test.isPending}>
          <PlugZap aria-hidden="true" />
          {test.isPending ? 'Testing…' : 'Test connection'}
        </Button>
      </div>
      <p className="text-sm text-slate-300">Reads each mapped point once from the device, as typed above. Nothing is saved.</p>
      <div role="status" className="text-sm">
        {test.isPending ? (
          <p className="text-slate-200">Reading the device…</p>
        ) : note ? (
          <p className="text-red-300">{note}</p>
        ) : result ? (
          <Summary result={result} />
        ) : null}
      </div>
      {result && !test.isPending && result.points.length > 0 && <Readings result={result} labelledBy={`${id}-heading`} />}
    </section>
  )
}

function Summary({ result }: { result: ConnectionTestResult }) {
  const took = typeof result.durationMs === 'number' ? ` in ${formatNumber(result.durationMs, 1)} ms` : ''
  const read = result.points.filter((p) => !p.error).length
  return (
    <p className={cn('rounded-md border px-3 py-2', result.ok ? 'border-emerald-500/40 bg-emerald-500/10 text-emerald-200' : 'border-red-500/40 bg-red-500/10 text-red-200')} data-testid="connection-test-summary">
      {result.ok ? `Connected: read ${read} of ${result.points.length} ${result.points.length === 1 ? 'point' : 'points'}${took}.` : `The test failed${took}${result.error ? `: ${result.error}` : '.'}`}
    </p>
  )
}

function Readings({ result, labelledBy }: { result: ConnectionTestResult; labelledBy: string }) {
  return (
    <div role="region" aria-labelledby={labelledBy} tabIndex={0} className="overflow-x-auto rounded-md border border-white/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">What each point read</caption>
        <thead className="bg-white/5 text-slate-200">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Sensor
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Raw
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Reading
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Problem
            </th>
          </tr>
        </thead>
        <tbody>
          {result.points.map((p) => (
            <tr key={p.sensor} className="border-t border-white/10" data-testid="connection-test-point">
              <th scope="row" className="px-3 py-2 font-medium text-white">
                {sensorName(p.sensor)}
              </th>
              <td className="px-3 py-2 text-right tabular-nums text-slate-200">{typeof p.raw === 'number' ? formatNumber(p.raw, 4) : '—'}</td>
              <td className="px-3 py-2 text-right tabular-nums text-white">{typeof p.value === 'number' ? `${formatNumber(p.value, 4)}${p.unit ? ` ${p.unit}` : ''}` : '—'}</td>
              <td className={cn('px-3 py-2', p.error ? 'text-red-300' : 'text-slate-400')}>{p.error ?? 'None'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
