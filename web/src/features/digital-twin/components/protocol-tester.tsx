import { useId, useState, type FormEvent } from 'react'
import { Cable } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Heading } from '@/components/heading'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { useSimulateCommunication, type Equipment, type ProtocolExchange, type ProtocolFrame } from '@/api/twin'
import { errorMessage, formatNumber } from '../lib/equipment'
import { useDriveAccess, useRecheckIdentityOnRefusal } from '../hooks/use-drive-access'
import { DriveNotice } from './drive-notice'
import {
  CIP_TAGS,
  defaultProtocolParams,
  hexDump,
  MODBUS_FUNCTIONS,
  modbusBlock,
  OPCUA_NODES,
  parseHex,
  PROTOCOL_NAMES,
  protocolKind,
  protocolRequestData,
  type ProtocolParams,
} from '../lib/protocol'

// A number field keeps the learner's raw text so an out-of-range or
// non-integer value reaches the server, whose 400 explains the valid range.
const toNumber = (text: string) => (text.trim() === '' ? Number.NaN : Number(text))

/**
 * Test Protocol: set the protocol's parameters, run a real exchange with the
 * twin's device, show both frames. Render it keyed by the twin's id: a
 * different twin starts from its own defaults with no exchange shown.
 */
export function ProtocolTester({ equipment }: { equipment: Equipment }) {
  const kind = protocolKind(equipment.communicationProtocol)
  const ids = useId()
  const [params, setParams] = useState<ProtocolParams>(() => defaultProtocolParams(equipment.id, equipment.connectionParameters))
  const [raw, setRaw] = useState(() => ({
    startAddress: String(params.startAddress),
    registerCount: String(params.registerCount),
    assembly: String(params.assembly),
  }))
  const exchange = useSimulateCommunication()
  const access = useDriveAccess(equipment)
  const recheckIdentity = useRecheckIdentityOnRefusal()

  if (!kind || !equipment.communicationProtocol) {
    return <p className="text-sm text-slate-300">This twin names no protocol the tester speaks.</p>
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (access.state !== 'allowed' || exchange.isPending) return
    const p: ProtocolParams = {
      ...params,
      startAddress: toNumber(raw.startAddress),
      registerCount: toNumber(raw.registerCount),
      assembly: toNumber(raw.assembly),
    }
    exchange.mutate({ id: equipment.id, protocol: equipment.communicationProtocol!, data: protocolRequestData(kind, p) }, { onError: recheckIdentity })
  }

  const field = (name: string) => `${ids}-${name}`

  return (
    <div className="min-w-0 space-y-4">
      <form onSubmit={onSubmit} noValidate aria-label={`${PROTOCOL_NAMES[kind]} test`} className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-3">
          {kind === 'modbus' && (
            <>
              <div className="space-y-1.5">
                <Label htmlFor={field('fc')}>Function code</Label>
                <Select
                  value={String(params.functionCode)}
                  onValueChange={(v) => {
                    const code = Number(v)
                    const block = modbusBlock(code)
                    setParams({ ...params, functionCode: code })
                    if (block) setRaw({ ...raw, startAddress: String(block.startAddress), registerCount: String(block.registerCount) })
                  }}
                >
                  <SelectTrigger id={field('fc')}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {MODBUS_FUNCTIONS.map((f) => (
                      <SelectItem key={f.code} value={String(f.code)}>
                        {f.code} – {f.name}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </div>
              <div className="space-y-1.5">
                <Label htmlFor={field('start')}>Start address</Label>
                <Input id={field('start')} inputMode="numeric" value={raw.startAddress} onChange={(e) => setRaw({ ...raw, startAddress: e.target.value })} />
              </div>
              <div className="space-y-1.5">
                <Label htmlFor={field('count')}>Register count</Label>
                <Input id={field('count')} inputMode="numeric" value={raw.registerCount} onChange={(e) => setRaw({ ...raw, registerCount: e.target.value })} />
              </div>
              <p className="text-xs text-slate-300 sm:col-span-3">The device holds {modbusBlock(params.functionCode)?.holds ?? 'no such block'}.</p>
            </>
          )}
          {kind === 'opcua' && (
            <div className="space-y-1.5 sm:col-span-3">
              <Label htmlFor={field('node')}>Node id</Label>
              <Input
                id={field('node')}
                className="font-mono"
                list={field('nodes')}
                value={params.nodeId}
                onChange={(e) => setParams({ ...params, nodeId: e.target.value })}
              />
              <datalist id={field('nodes')}>
                {nodeSuggestions(equipment).map((n) => (
                  <option key={n} value={n} />
                ))}
              </datalist>
            </div>
          )}
          {kind === 'mqtt' && (
            <>
              <div className="space-y-1.5 sm:col-span-2">
                <Label htmlFor={field('topic')}>Topic</Label>
                <Input id={field('topic')} className="font-mono" value={params.topic} readOnly aria-describedby={field('topic-note')} />
                <p id={field('topic-note')} className="text-xs text-slate-300">
                  Test Protocol publishes only to this twin&apos;s test topic, never to its telemetry topic, so a test is never stored as a reading.
                </p>
              </div>
              <div className="space-y-1.5">
                <Label htmlFor={field('qos')}>QoS</Label>
                <Select value={String(params.qos)} onValueChange={(v) => setParams({ ...params, qos: Number(v) })}>
                  <SelectTrigger id={field('qos')}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value="0">0 – at most once</SelectItem>
                    <SelectItem value="1">1 – at least once</SelectItem>
                    <SelectItem value="2">2 – exactly once</SelectItem>
                  </SelectContent>
                </Select>
              </div>
              <p className="text-xs text-slate-300 sm:col-span-3">Publishes the twin&apos;s latest readings as JSON through the broker.</p>
            </>
          )}
          {kind === 'ethernetip' && (
            <>
              <div className="space-y-1.5">
                <Label htmlFor={field('target')}>Read</Label>
                <Select value={params.cipTarget} onValueChange={(v) => setParams({ ...params, cipTarget: v as ProtocolParams['cipTarget'] })}>
                  <SelectTrigger id={field('target')}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value="assembly">Assembly instance</SelectItem>
                    <SelectItem value="tag">Tag</SelectItem>
                  </SelectContent>
                </Select>
              </div>
              {params.cipTarget === 'assembly' ? (
                <div className="space-y-1.5 sm:col-span-2">
                  <Label htmlFor={field('assembly')}>Assembly instance</Label>
                  <Input id={field('assembly')} inputMode="numeric" value={raw.assembly} onChange={(e) => setRaw({ ...raw, assembly: e.target.value })} />
                  <p className="text-xs text-slate-300">100: the seven readings as REAL; 101: state as DINT.</p>
                </div>
              ) : (
                <div className="space-y-1.5 sm:col-span-2">
                  <Label htmlFor={field('tag')}>Tag</Label>
                  <Input id={field('tag')} className="font-mono" list={field('tags')} value={params.tag} onChange={(e) => setParams({ ...params, tag: e.target.value })} />
                  <datalist id={field('tags')}>
                    {CIP_TAGS.map((t) => (
                      <option key={t} value={t} />
                    ))}
                  </datalist>
                </div>
              )}
            </>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <Button type="submit" disabled={access.state !== 'allowed'} unavailable={exchange.isPending} aria-describedby={access.state === 'denied' ? field('drive') : undefined}>
            <Cable aria-hidden="true" />
            {exchange.isPending ? 'Testing…' : 'Test Protocol'}
          </Button>
          <DriveNotice access={access} id={field('drive')} />
        </div>
      </form>

      {exchange.isError && (
        <p role="alert" className="rounded-md border border-red-500/50 bg-red-500/10 p-3 text-sm text-red-200">
          {errorMessage(exchange.error)}
        </p>
      )}
      {exchange.isSuccess && <ExchangeView exchange={exchange.data} />}
    </div>
  )
}

function nodeSuggestions(equipment: Equipment): string[] {
  const own = equipment.connectionParameters?.nodeIds
  const list = Array.isArray(own) ? own.filter((n): n is string => typeof n === 'string') : []
  return [...new Set([...list, ...OPCUA_NODES])]
}

// Floats decoded from float32 registers carry noise digits (6.699999809…); four decimals is what the device meant.
const show = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? formatNumber(v, 4) : JSON.stringify(v))

function ExchangeView({ exchange }: { exchange: ProtocolExchange }) {
  const frames = exchange.frames ?? []
  return (
    <div className="min-w-0 space-y-4" aria-live="polite" data-testid="protocol-exchange">
      <p className="text-xs text-slate-300">
        {[
          exchange.device && `Device ${exchange.device}`,
          exchange.client && `client ${exchange.client}`,
          exchange.durationMs != null && `${exchange.durationMs.toLocaleString('en-US', { maximumFractionDigits: 1 })} ms`,
        ]
          .filter(Boolean)
          .join(' · ')}
      </p>
      <div className="grid min-w-0 gap-4 lg:grid-cols-2">
        <FrameView title="Request" frame={exchange.request} />
        {exchange.response ? (
          <FrameView title="Response" frame={exchange.response} />
        ) : (
          <section aria-label="Response frame" className="rounded-lg border border-white/10 bg-slate-950/60 p-3 text-sm text-slate-300" data-testid="frame-response">
            <Heading depth={2} className="text-sm font-semibold text-white">Response</Heading>
            <p className="mt-2">No response frame: a QoS 0 publish is not acknowledged.</p>
          </section>
        )}
      </div>
      {exchange.result !== undefined && exchange.result !== null && <ResultView result={exchange.result} />}
      {frames.length > 2 && (
        <details className="min-w-0 rounded-lg border border-white/10 bg-slate-950/40 p-3">
          <summary className="cursor-pointer text-sm font-semibold text-white">Whole conversation ({frames.length} frames)</summary>
          <ol className="mt-3 space-y-3">
            {frames.map((f, i) => (
              <li key={i}>
                <FrameView title={`${i + 1}. ${f.direction ?? 'frame'}`} frame={f} testId={null} />
              </li>
            ))}
          </ol>
        </details>
      )}
    </div>
  )
}

/** What the client library decoded: a table for a list of values, a list of fields for one. */
function ResultView({ result }: { result: unknown }) {
  const rows = Array.isArray(result) ? result : result && typeof result === 'object' && Array.isArray((result as { values?: unknown }).values) ? ((result as { values: unknown[] }).values) : null
  const head = result && typeof result === 'object' && !Array.isArray(result) ? Object.entries(result).filter(([k]) => k !== 'values') : []
  const objects = rows?.filter((r): r is Record<string, unknown> => !!r && typeof r === 'object') ?? []
  const columns = [...new Set(objects.flatMap((r) => Object.keys(r)))]
  return (
    <section aria-label="Decoded result" className="min-w-0 rounded-lg border border-white/10 bg-slate-950/60 p-3" data-testid="protocol-result">
      <Heading depth={2} className="text-sm font-semibold text-white">Decoded result</Heading>
      {head.length > 0 && (
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
          {head.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-slate-300">{k}</dt>
              <dd className="break-all font-mono text-white">{show(v)}</dd>
            </div>
          ))}
        </dl>
      )}
      {objects.length > 0 && (
        // Focusable because it scrolls sideways on a phone: keyboard users must be able to scroll it.
        <div role="region" aria-label="Decoded values" tabIndex={0} className="mt-2 overflow-x-auto focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400">
          <table className="w-full text-left text-xs">
            <thead className="text-slate-300">
              <tr>
                {columns.map((c) => (
                  <th key={c} scope="col" className="py-1 pr-3 font-medium">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-white/10 font-mono text-white">
              {objects.map((r, i) => (
                <tr key={i}>
                  {columns.map((c) => (
                    <td key={c} className="py-1 pr-3">
                      {r[c] === undefined ? '' : show(r[c])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rows === null && head.length === 0 && <p className="mt-2 break-all font-mono text-xs text-white">{show(result)}</p>}
    </section>
  )
}

function FrameView({ title, frame, testId }: { title: string; frame: ProtocolFrame; testId?: string | null }) {
  const bytes = parseHex(frame.hex)
  const length = frame.length ?? bytes?.length
  return (
    <section
      aria-label={`${title} frame`}
      className="min-w-0 rounded-lg border border-white/10 bg-slate-950/60 p-3"
      data-testid={testId === null ? undefined : (testId ?? `frame-${title.toLowerCase()}`)}
    >
      <Heading depth={2} className="flex items-baseline justify-between gap-2 text-sm font-semibold capitalize text-white">
        {title}
        <span className="text-xs font-normal normal-case text-slate-300">{length != null ? `${length} bytes` : ''}</span>
      </Heading>
      {frame.summary && <p className="mt-1 text-xs text-slate-200">{frame.summary}</p>}
      <pre className="mt-2 overflow-x-auto rounded bg-black/50 p-2 font-mono text-xs leading-relaxed text-emerald-200" role="region" aria-label={`${title} bytes in hex`} tabIndex={0}>
        {hexDump(frame.hex) || '(no bytes)'}
      </pre>
      {frame.fields && frame.fields.length > 0 && (
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
          {frame.fields.map((f, i) => (
            <div key={`${f.name}-${i}`} className="contents">
              <dt className="text-slate-300">{f.name}</dt>
              <dd className="break-all font-mono text-white">{show(f.value)}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  )
}
