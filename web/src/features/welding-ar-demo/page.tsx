import { PageShell } from '@/components/page-shell'
import { WeldingSimulator } from '@/features/welding-ar-demo/components/welding-simulator'

export { WeldingSimulator }

/** AR Welding Simulator (route table, spec 000 §2; spec 001 §2). */
export default function WeldingArDemoPage() {
  return (
    <PageShell title="AR Welding Simulator">
      <p className="mt-3 max-w-3xl text-slate-300">
        Practise a weld through your camera: pick the process, material and position, strike the arc and keep every reading in
        its band.
      </p>
      <div className="mt-8">
        <WeldingSimulator />
      </div>
    </PageShell>
  )
}
