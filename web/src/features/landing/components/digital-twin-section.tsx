import { Link } from 'wouter'
import { AlertTriangle, Check, Gauge, Thermometer } from 'lucide-react'
import { buttonVariants } from '@/components/ui/button'
import { digitalTwinPoints } from '@/content/landing'
import { cn } from '@/lib/utils'

/** The section's fixed metric tiles (spec 000 §2). */
const metrics = [
  { label: 'Temperature', value: 'Normal', icon: Thermometer, tone: 'text-emerald-300' },
  { label: 'Performance', value: '94.2%', icon: Gauge, tone: 'text-sky-300' },
  { label: 'Alerts', value: '0', icon: AlertTriangle, tone: 'text-amber-300' },
] as const

/** A drawn twin: a motor and pump on a skid with sensor callouts. */
function TwinVisual() {
  return (
    <svg viewBox="0 0 400 260" role="img" aria-label="Digital twin of a motor-driven pump with live sensor readings" className="h-auto w-full">
      <defs>
        <linearGradient id="twin-metal" x1="0" x2="0" y1="0" y2="1">
          <stop offset="0" stopColor="#64748b" />
          <stop offset="1" stopColor="#1e293b" />
        </linearGradient>
      </defs>
      <rect x="0" y="0" width="400" height="260" rx="16" fill="#0f172a" />
      <g stroke="#38bdf8" strokeOpacity="0.15">
        {Array.from({ length: 9 }, (_, i) => (
          <line key={`v${i}`} x1={i * 50} y1="0" x2={i * 50} y2="260" />
        ))}
        {Array.from({ length: 6 }, (_, i) => (
          <line key={`h${i}`} x1="0" y1={i * 50} x2="400" y2={i * 50} />
        ))}
      </g>
      <rect x="60" y="190" width="280" height="16" rx="4" fill="#334155" />
      <rect x="80" y="110" width="130" height="80" rx="12" fill="url(#twin-metal)" stroke="#38bdf8" strokeWidth="2" />
      <rect x="210" y="140" width="30" height="20" fill="#475569" />
      <circle cx="280" cy="150" r="40" fill="url(#twin-metal)" stroke="#38bdf8" strokeWidth="2" />
      <rect x="270" y="60" width="20" height="52" fill="#475569" />
      <circle cx="280" cy="150" r="12" fill="#0ea5e9">
        <animate attributeName="opacity" values="1;0.4;1" dur="2s" repeatCount="indefinite" />
      </circle>
      <g fontFamily="ui-sans-serif, system-ui" fontSize="12" fill="#e2e8f0">
        <line x1="145" y1="110" x2="145" y2="60" stroke="#f59e0b" strokeDasharray="4 3" />
        <rect x="95" y="36" width="100" height="24" rx="6" fill="#1e293b" stroke="#f59e0b" />
        <text x="145" y="52" textAnchor="middle">Motor 62 °C</text>
        <line x1="320" y1="150" x2="350" y2="110" stroke="#22c55e" strokeDasharray="4 3" />
        <rect x="300" y="86" width="90" height="24" rx="6" fill="#1e293b" stroke="#22c55e" />
        <text x="345" y="102" textAnchor="middle">1,480 rpm</text>
      </g>
    </svg>
  )
}

/** Digital Twin Integration: a visual, fixed metric tiles and four feature points. */
export function DigitalTwinSection() {
  return (
    <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 py-20 sm:px-6 lg:grid-cols-2 lg:px-8">
      <div className="rounded-xl border border-white/10 bg-slate-900/70 p-4">
        <TwinVisual />
        <dl className="mt-4 grid grid-cols-3 gap-3">
          {metrics.map(({ label, value, icon: Icon, tone }) => (
            <div key={label} className="rounded-lg bg-white/5 p-3 text-center">
              <dt className="flex items-center justify-center gap-1 text-xs text-slate-400">
                <Icon className="h-3.5 w-3.5" aria-hidden="true" />
                {label}
              </dt>
              <dd className={cn('mt-1 text-xl font-bold', tone)} data-testid={`twin-${label.toLowerCase()}`}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
      </div>
      <div>
        <h2 id="digital-twin-title" className="text-3xl font-bold text-white sm:text-4xl">
          Digital Twin Integration
        </h2>
        <p className="mt-3 text-slate-300">Train on an exact virtual copy of the equipment your learners will service.</p>
        <ul className="mt-6 space-y-3">
          {digitalTwinPoints.map((p) => (
            <li key={p} className="flex items-start gap-3 text-slate-200">
              <Check className="mt-0.5 h-5 w-5 shrink-0 text-emerald-400" aria-hidden="true" />
              {p}
            </li>
          ))}
        </ul>
        <Link href="/digital-twin" className={cn(buttonVariants({ size: 'lg' }), 'mt-8')}>
          Explore Digital Twin Demo
        </Link>
      </div>
    </div>
  )
}
