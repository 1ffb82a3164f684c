import { lazy, Suspense, useState, type ReactNode } from 'react'
import { BarChart3, Cpu, Flame, Mic, SlidersHorizontal } from 'lucide-react'
import { HeadingLevelContext } from '@/components/heading'
import { PageShell } from '@/components/page-shell'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'

// Each feature loads only when its tab is first opened, so the page stays light.
const AnalyticsDashboard = lazy(() => import('@/features/analytics').then((m) => ({ default: m.AnalyticsDashboard })))
const DigitalTwinMonitor = lazy(() => import('@/features/digital-twin').then((m) => ({ default: m.DigitalTwinMonitor })))
const PersonalizationWizard = lazy(() => import('@/features/personalization').then((m) => ({ default: m.PersonalizationWizard })))
const VoiceTrainingConsole = lazy(() => import('@/features/voice-xr').then((m) => ({ default: m.VoiceTrainingConsole })))
const WeldingSimulator = lazy(() => import('@/features/welding-ar-demo').then((m) => ({ default: m.WeldingSimulator })))

/** The page's sections, in tab order. */
const advancedSections = [
  { id: 'analytics', label: 'Analytics', heading: 'Performance analytics', icon: BarChart3 },
  { id: 'digital-twin', label: 'Digital Twin', heading: 'Digital twin equipment monitor', icon: Cpu },
  { id: 'personalization', label: 'Personalization', heading: 'Personalization wizard', icon: SlidersHorizontal },
  { id: 'voice', label: 'Voice Training', heading: 'Voice-activated training', icon: Mic },
  { id: 'welding', label: 'AR Welding', heading: 'AR welding simulator', icon: Flame },
] as const
type SectionId = (typeof advancedSections)[number]['id']

function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="py-8 text-slate-300">
      Loading {what}…
    </p>
  )
}

const content: Record<SectionId, () => ReactNode> = {
  analytics: () => <AnalyticsDashboard />,
  'digital-twin': () => <DigitalTwinMonitor />,
  personalization: () => <PersonalizationWizard />,
  voice: () => <VoiceTrainingConsole />,
  welding: () => <WeldingSimulator />,
}

/**
 * Advanced Features (seed 001 §2): the analytics dashboard, the digital twin
 * monitor, the personalization wizard, voice training and the welding
 * simulator, each the feature's own exported component in its own tab.
 */
export default function AdvancedPage() {
  const [tab, setTab] = useState<SectionId>('analytics')
  return (
    <PageShell title="Advanced Features">
      <p className="mt-3 max-w-3xl text-slate-300">
        Every advanced tool in one place: your analytics, live equipment twins, your training profile, hands-free voice training and the AR welding
        simulator.
      </p>
      <Tabs value={tab} onValueChange={(v) => setTab(v as SectionId)} className="mt-8">
        <TabsList aria-label="Advanced features" className="flex-wrap">
          {advancedSections.map(({ id, label, icon: Icon }) => (
            <TabsTrigger key={id} value={id}>
              <Icon className="mr-1.5 h-4 w-4" aria-hidden="true" />
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        {advancedSections.map(({ id, heading }) => (
          <TabsContent key={id} value={id} className="space-y-4">
            <h2 className="text-2xl font-semibold text-white">{heading}</h2>
            {/* Radix mounts only the open tab: a feature's code and calls wait until it is chosen. */}
            <Suspense fallback={<Loading what={heading.toLowerCase()} />}>
              {/* The feature's headings sit below this section's h2. */}
              <HeadingLevelContext.Provider value={3}>{content[id]()}</HeadingLevelContext.Provider>
            </Suspense>
          </TabsContent>
        ))}
      </Tabs>
    </PageShell>
  )
}
