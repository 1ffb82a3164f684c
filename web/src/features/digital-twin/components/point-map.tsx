import type { ChangeEvent } from 'react'
import { useFieldArray, useWatch } from 'react-hook-form'
import { Plus, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { FormField, selectClass } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { cn } from '@/lib/utils'
import { DATA_TYPES, REGISTER_TYPES, SENSORS, WORD_ORDERS, needsWordOrder, sensorName, type Protocol } from '../lib/connection'
import { defaultPoint, errorAt, nextSensor, type EquipmentFormApi } from '../lib/equipment-form'

/** A field of a row: a grid cell on a narrow screen, a flexible column of one line on a wide one. */
const cell = 'lg:min-w-0 lg:flex-1'

const where: Record<Protocol, string> = {
  'Modbus TCP': 'its register (0-based), table and data type',
  'OPC-UA': 'its variable’s node id',
  'EtherNet/IP': 'its controller tag',
  MQTT: 'its key in the JSON payload',
}

/**
 * Where each sensor's value is on the device, one row a sensor: the
 * protocol's address of the value, and how the raw value becomes the
 * reading (raw × scale + offset).
 */
export function PointMap({ form, protocol }: { form: EquipmentFormApi; protocol: Protocol }) {
  const { control, register, getValues, setValue, formState } = form
  const points = useFieldArray({ control, name: 'connection.points' })
  const rows = useWatch({ control, name: 'connection.points' })
  const err = (path: string) => errorAt(formState.errors, path)
  const next = nextSensor(rows)
  const listError = err('connection.points')

  /** A new sensor on a row moves the defaults that followed the old one (the demo device's register, the payload key). */
  const sensorChanged = (i: number, event: ChangeEvent<HTMLSelectElement>, onChange: (e: ChangeEvent<HTMLSelectElement>) => Promise<unknown>) => {
    const before = getValues(`connection.points.${i}.sensor`)
    void onChange(event)
    const after = event.target.value
    const row = getValues(`connection.points.${i}`)
    if (row.field === before) setValue(`connection.points.${i}.field`, after)
    if (row.register === defaultPoint(before).register) setValue(`connection.points.${i}.register`, defaultPoint(after).register)
  }

  return (
    <fieldset className="space-y-3">
      <legend className="font-semibold text-white">Point map</legend>
      <p className="text-sm text-slate-300">
        For each sensor, {where[protocol]}; the reading is raw × scale + offset. Each sensor is mapped at most once.
      </p>
      <ol className="space-y-3">
        {points.fields.map((f, i) => {
          const row = rows[i] ?? f
          const sensorField = register(`connection.points.${i}.sensor`)
          return (
            <li key={f.id}>
              <fieldset
                className="grid grid-cols-2 gap-3 rounded-lg border border-white/10 p-3 lg:flex lg:items-start"
                data-testid="point-row"
              >
                <legend className="sr-only">
                  Point {i + 1}: {sensorName(row.sensor)}
                </legend>
                <FormField label="Sensor" error={err(`connection.points.${i}.sensor`)} className={cn(cell, 'col-span-2 lg:flex-[1.7]')} name={`connection.points.${i}.sensor`}>
                  {(p) => (
                    <select {...p} {...sensorField} onChange={(e) => sensorChanged(i, e, sensorField.onChange)} className={selectClass}>
                      {SENSORS.map((s) => (
                        <option key={s.key} value={s.key}>
                          {s.name} ({s.unit})
                        </option>
                      ))}
                    </select>
                  )}
                </FormField>
                {protocol === 'Modbus TCP' && (
                  <>
                    <FormField label="Register" className={cell} error={err(`connection.points.${i}.register`)} name={`connection.points.${i}.register`}>
                      {(p) => <Input {...p} {...register(`connection.points.${i}.register`)} inputMode="numeric" />}
                    </FormField>
                    <FormField label="Table" className={cell} error={err(`connection.points.${i}.registerType`)} name={`connection.points.${i}.registerType`}>
                      {(p) => (
                        <select {...p} {...register(`connection.points.${i}.registerType`)} className={selectClass}>
                          {REGISTER_TYPES.map((t) => (
                            <option key={t}>{t}</option>
                          ))}
                        </select>
                      )}
                    </FormField>
                    <FormField label="Data type" className={cell} error={err(`connection.points.${i}.dataType`)} name={`connection.points.${i}.dataType`}>
                      {(p) => (
                        <select {...p} {...register(`connection.points.${i}.dataType`)} className={selectClass}>
                          {DATA_TYPES.map((t) => (
                            <option key={t}>{t}</option>
                          ))}
                        </select>
                      )}
                    </FormField>
                    {needsWordOrder(row.dataType) && (
                      <FormField label="Word order" className={cell} error={err(`connection.points.${i}.wordOrder`)} name={`connection.points.${i}.wordOrder`}>
                        {(p) => (
                          <select {...p} {...register(`connection.points.${i}.wordOrder`)} className={selectClass}>
                            {WORD_ORDERS.map((t) => (
                              <option key={t}>{t}</option>
                            ))}
                          </select>
                        )}
                      </FormField>
                    )}
                  </>
                )}
                {protocol === 'OPC-UA' && (
                  <FormField label="Node id" className={cn(cell, 'col-span-2 lg:flex-[2]')} error={err(`connection.points.${i}.nodeId`)} name={`connection.points.${i}.nodeId`}>
                    {(p) => <Input {...p} {...register(`connection.points.${i}.nodeId`)} placeholder="ns=2;s=Temperature" autoComplete="off" spellCheck={false} />}
                  </FormField>
                )}
                {protocol === 'EtherNet/IP' && (
                  <FormField label="Tag" className={cn(cell, 'col-span-2 lg:flex-[2]')} error={err(`connection.points.${i}.tag`)} name={`connection.points.${i}.tag`}>
                    {(p) => <Input {...p} {...register(`connection.points.${i}.tag`)} placeholder="Line1_Temp" autoComplete="off" spellCheck={false} />}
                  </FormField>
                )}
                {protocol === 'MQTT' && (
                  <FormField label="Field" className={cn(cell, 'col-span-2 lg:flex-[2]')} error={err(`connection.points.${i}.field`)} name={`connection.points.${i}.field`}>
                    {(p) => <Input {...p} {...register(`connection.points.${i}.field`)} autoComplete="off" spellCheck={false} />}
                  </FormField>
                )}
                <FormField label="Scale" className={cell} error={err(`connection.points.${i}.scale`)} name={`connection.points.${i}.scale`}>
                  {(p) => <Input {...p} {...register(`connection.points.${i}.scale`)} inputMode="decimal" />}
                </FormField>
                <FormField label="Offset" className={cell} error={err(`connection.points.${i}.offset`)} name={`connection.points.${i}.offset`}>
                  {(p) => <Input {...p} {...register(`connection.points.${i}.offset`)} inputMode="decimal" />}
                </FormField>
                <Button variant="ghost" aria-label={`Remove the ${sensorName(row.sensor)} point`} onClick={() => points.remove(i)} className="col-span-2 justify-self-start lg:mt-7 lg:flex-none">
                  <Trash2 aria-hidden="true" />
                  Remove
                </Button>
              </fieldset>
            </li>
          )
        })}
      </ol>
      {listError && <p className="text-sm text-red-300">{listError}</p>}
      <Button variant="outline" disabled={next === null} onClick={() => next && points.append(defaultPoint(next), { shouldFocus: true })}>
        <Plus aria-hidden="true" />
        Add point
      </Button>
      {next === null && <p className="text-sm text-slate-300">Every sensor is mapped.</p>}
    </fieldset>
  )
}
