import { useState } from 'react'
import { Box, Clock, Play, Radio } from 'lucide-react'
import { PageShell } from '@/components/page-shell'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import {
  unityModules,
  unityStatusLabel,
  unityUnavailableReason,
  unrealProjects,
  unrealStatusLabel,
  unrealUnavailableReason,
  type UnityModule,
  type UnityStatus,
  type UnrealProject,
  type UnrealStatus,
} from '@/content/unity-unreal'
import { LaunchPanel } from './components/launch-panel'
import { StreamPanel } from './components/stream-panel'
import { canLaunch, canStream, countByStatus } from './lib/catalog'

type Open = { kind: 'launch'; moduleId: string; title: string } | { kind: 'stream'; project: UnrealProject } | null

const statusTone: Record<UnityStatus | UnrealStatus, 'live' | 'default' | 'secondary' | 'outline'> = {
  available: 'default',
  live: 'live',
  'in-development': 'secondary',
  beta: 'secondary',
  'coming-soon': 'outline',
  development: 'outline',
}

function Skills({ skills }: { skills: readonly string[] }) {
  return (
    <ul aria-label="Skills" className="flex flex-wrap gap-1.5">
      {skills.map((s) => (
        <li key={s} className="rounded bg-white/5 px-2 py-0.5 text-xs text-slate-200">
          {s}
        </li>
      ))}
    </ul>
  )
}

function UnityCard({ m, onLaunch }: { m: UnityModule; onLaunch(): void }) {
  const launchable = canLaunch(m)
  const reasonId = `reason-${m.id}`
  return (
    <Card data-module-id={m.id} data-status={m.status} className="flex flex-col">
      <CardHeader>
        <div className="flex items-start justify-between gap-2">
          <CardTitle as="h3">{m.title}</CardTitle>
          <Badge variant={statusTone[m.status]}>{unityStatusLabel[m.status]}</Badge>
        </div>
        <CardDescription>
          {m.trade} · {m.difficulty} · <Clock className="inline h-3.5 w-3.5" aria-hidden="true" /> ~{m.durationMinutes} min
        </CardDescription>
      </CardHeader>
      <CardContent className="flex-1 space-y-3">
        <p className="text-sm text-slate-300">{m.description}</p>
        <Skills skills={m.skills} />
      </CardContent>
      <CardFooter className="flex-col items-start gap-2">
        <Button onClick={onLaunch} disabled={!launchable} aria-describedby={launchable ? undefined : reasonId}>
          <Play aria-hidden="true" />
          Launch module
          <span className="sr-only">: {m.title}</span>
        </Button>
        {!launchable && m.status !== 'available' ? (
          <p id={reasonId} className="text-xs text-slate-400">
            {unityUnavailableReason[m.status]}
          </p>
        ) : null}
      </CardFooter>
    </Card>
  )
}

function UnrealCard({ p, onStream }: { p: UnrealProject; onStream(): void }) {
  const streamable = canStream(p)
  const reasonId = `reason-${p.id}`
  return (
    <Card data-project-id={p.id} data-status={p.status} className="flex flex-col">
      <CardHeader>
        <div className="flex items-start justify-between gap-2">
          <CardTitle as="h3">{p.title}</CardTitle>
          <Badge variant={statusTone[p.status]}>{unrealStatusLabel[p.status]}</Badge>
        </div>
        <CardDescription>
          {p.trade} · {p.environment}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex-1 space-y-3">
        <p className="text-sm text-slate-300">{p.description}</p>
        <Skills skills={p.skills} />
      </CardContent>
      <CardFooter className="flex-col items-start gap-2">
        <Button onClick={onStream} disabled={!streamable} aria-describedby={streamable ? undefined : reasonId}>
          <Radio aria-hidden="true" />
          Stream project
          <span className="sr-only">: {p.title}</span>
        </Button>
        {!streamable && p.status !== 'live' ? (
          <p id={reasonId} className="text-xs text-slate-400">
            {unrealUnavailableReason[p.status]}
          </p>
        ) : null}
      </CardFooter>
    </Card>
  )
}

function Summary<S extends string>({ items, order, labels }: { items: readonly { status: S }[]; order: readonly S[]; labels: Record<S, string> }) {
  return (
    <p className="text-sm text-slate-300">
      {countByStatus(items, order)
        .map((c) => `${c.count} ${labels[c.status].toLowerCase()}`)
        .join(' · ')}
    </p>
  )
}

/** Unity & Unreal Integration (seed 001 §2, §4): Unity WebGL modules launch into our own WebXR player; live Unreal projects stream real sessions over /ws. */
export default function UnityUnrealPage() {
  const [open, setOpen] = useState<Open>(null)

  return (
    <PageShell title="Unity & Unreal Integration">
      <p className="mt-3 max-w-3xl text-slate-300">
        Training content built in Unity and Unreal Engine, delivered in the browser. Available Unity modules open in our own WebXR scene player on
        desktop, VR or AR; live Unreal projects stream the sessions trainees are running right now.
      </p>
      <Tabs defaultValue="unity" className="mt-8">
        <TabsList aria-label="Engines">
          <TabsTrigger value="unity">
            <Box className="mr-1.5 h-4 w-4" aria-hidden="true" />
            Unity WebGL Modules
          </TabsTrigger>
          <TabsTrigger value="unreal">
            <Radio className="mr-1.5 h-4 w-4" aria-hidden="true" />
            Unreal Streaming Projects
          </TabsTrigger>
        </TabsList>
        <TabsContent value="unity" className="space-y-4">
          <h2 className="sr-only">Unity WebGL Modules</h2>
          <Summary items={unityModules} order={['available', 'in-development', 'coming-soon'] as const} labels={unityStatusLabel} />
          <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {unityModules.map((m) => (
              <UnityCard key={m.id} m={m} onLaunch={() => m.moduleId && setOpen({ kind: 'launch', moduleId: m.moduleId, title: m.title })} />
            ))}
          </div>
        </TabsContent>
        <TabsContent value="unreal" className="space-y-4">
          <h2 className="sr-only">Unreal Streaming Projects</h2>
          <Summary items={unrealProjects} order={['live', 'beta', 'development'] as const} labels={unrealStatusLabel} />
          <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {unrealProjects.map((p) => (
              <UnrealCard key={p.id} p={p} onStream={() => setOpen({ kind: 'stream', project: p })} />
            ))}
          </div>
        </TabsContent>
      </Tabs>

      {open?.kind === 'launch' ? (
        <LaunchPanel moduleId={open.moduleId} title={open.title} onClose={() => setOpen(null)} />
      ) : open?.kind === 'stream' ? (
        <StreamPanel
          key={open.project.id}
          project={open.project}
          onClose={() => setOpen(null)}
          onTrain={() => open.project.moduleId && setOpen({ kind: 'launch', moduleId: open.project.moduleId, title: open.project.title })}
        />
      ) : null}
    </PageShell>
  )
}
