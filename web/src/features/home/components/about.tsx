import { Award, Brain, Hand, Headphones, Monitor, Vibrate } from 'lucide-react'
import { forgettingFacts, reachStats } from '@/content/home'
import { RevealSection } from '@/components/reveal'

const promises = [
  { icon: Monitor, title: '4K VR Visuals', text: 'Equipment, job sites and hazards rendered true to life.' },
  { icon: Vibrate, title: 'Haptic Feedback', text: 'Feel the tool bite, the conduit bend and the torch hold.' },
  { icon: Headphones, title: 'Spatial Audio', text: 'Hear the arc, the hiss of a leak and the crew around you.' },
  { icon: Hand, title: 'Hand Tracking', text: 'Use your own hands, not a controller, for real muscle memory.' },
  { icon: Award, title: 'Industry Certification', text: 'Programmes aligned with OSHA, EPA, AWS and licensing exams.' },
  { icon: Brain, title: 'Learning Analytics', text: 'A dashboard for instructors and a digital twin of every machine.' },
]

/** The about section (#about): the problem XR training answers and what the platform promises (spec 000 §1). */
export function About() {
  return (
    <RevealSection id="about" aria-labelledby="about-heading" className="home-section scroll-mt-20 bg-slate-950 py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="grid gap-12 lg:grid-cols-2 lg:items-center">
          <div>
            <p className="text-sm font-semibold uppercase tracking-widest text-amber-400">About Journeyman XR</p>
            <h2 id="about-heading" className="mt-3 text-3xl font-bold tracking-tight text-white sm:text-4xl">
              Classroom training fades. Practice sticks.
            </h2>
            <p className="mt-5 text-lg text-slate-300">
              Apprentices forget 70% of what they hear within 24 hours and nearly 90% within a month. Journeyman XR puts
              electricians, plumbers, HVAC technicians, welders and every other trade hands-on with the work itself, in
              VR, AR, mixed reality or on the desktop, so skills are built by doing, safely, as often as it takes.
            </p>
            <p className="mt-4 text-slate-300">
              Training organisations, employers, instructors and apprentices use one platform: ready-made trade modules,
              custom content, the PORTAL learning management platform and the FLOW low-code authoring studio.
            </p>
          </div>
          <ul className="grid gap-4 sm:grid-cols-2" aria-label="The forgetting curve">
            {forgettingFacts.map((fact) => (
              <li key={fact.id} className="rounded-2xl border border-red-400/30 bg-red-500/10 p-6">
                <p className="text-4xl font-extrabold text-red-300">{fact.value}</p>
                <p className="mt-2 text-sm text-slate-200">{fact.label}</p>
              </li>
            ))}
            {reachStats.map((stat) => (
              <li key={stat.id} className="rounded-2xl border border-white/10 bg-slate-900/70 p-6">
                <p className="text-4xl font-extrabold text-amber-400">{stat.value}</p>
                <p className="mt-2 text-sm text-slate-200">{stat.label}</p>
              </li>
            ))}
          </ul>
        </div>

        <ul className="mt-16 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label="What the platform delivers">
          {promises.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-4 rounded-xl border border-white/10 bg-slate-900/60 p-5">
              <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg bg-amber-500/15 text-amber-400">
                <Icon className="h-5 w-5" aria-hidden="true" />
              </span>
              <div>
                <h3 className="font-semibold text-white">{title}</h3>
                <p className="mt-1 text-sm text-slate-300">{text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </RevealSection>
  )
}
