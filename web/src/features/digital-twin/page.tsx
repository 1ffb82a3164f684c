import { PageShell } from '@/components/page-shell'
import { DigitalTwinMonitor } from './components/digital-twin-monitor'

/** Digital Twin Equipment (route table, spec 000 §2; seed 001 §2). */
export default function DigitalTwinPage() {
  return (
    <PageShell title="Digital Twin Equipment">
      <p className="mt-3 max-w-3xl text-slate-300">
        Live twins of shop-floor equipment: watch their sensors, test the industrial protocol each one speaks, and plan its maintenance.
      </p>
      <div className="mt-8">
        <DigitalTwinMonitor />
      </div>
    </PageShell>
  )
}
