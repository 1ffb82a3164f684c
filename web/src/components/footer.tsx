import type { ReactNode } from 'react'
import { Mail, Headphones, ShieldCheck } from 'lucide-react'
import { Link, useLocation } from 'wouter'
import { contactEmail, productName } from '@/content/navigation'
import { BrandMark } from '@/components/brand-mark'
import { normalizePath } from '@/app/routes'

/** Decorative particles drifting behind the footer (spec 000 §9). */
export const FOOTER_PARTICLES = 10

/**
 * The spec's footer links are placeholders (#); these name pages this app
 * has, so they lead there.
 */
const platformLinks: ReadonlyArray<{ label: string; to: string }> = [
  { label: 'XR Authoring Tool', to: '/unity-unreal' },
  { label: 'Learning Dashboard', to: '/learning-hub' },
  { label: 'Analytics', to: '/analytics' },
  { label: 'Digital Twins', to: '/digital-twin' },
  { label: 'Safety Training', to: '/training/safety' },
]
export const legalLinks: ReadonlyArray<{ label: string; to: string }> = [
  { label: 'Privacy Policy', to: '/privacy' },
  { label: 'Terms of Service', to: '/terms' },
  { label: 'Security', to: '/security' },
]

function LinkedInIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" fill="currentColor" aria-hidden="true" focusable="false">
      <path d="M4.98 3.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5zM3 9.75h4V21H3V9.75zm6.5 0h3.8v1.6h.06c.53-1 1.83-2.06 3.77-2.06 4.03 0 4.77 2.65 4.77 6.1V21h-4v-4.9c0-1.17-.02-2.68-1.63-2.68-1.64 0-1.89 1.28-1.89 2.6V21h-4V9.75z" />
    </svg>
  )
}
function TwitterIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" fill="currentColor" aria-hidden="true" focusable="false">
      <path d="M17.8 3h3.1l-6.8 7.7L22 21h-6.2l-4.9-6.3L5.3 21H2.2l7.3-8.3L2 3h6.4l4.4 5.8L17.8 3zm-1.1 16.2h1.7L7.4 4.7H5.6l11.1 14.5z" />
    </svg>
  )
}
function YouTubeIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" fill="currentColor" aria-hidden="true" focusable="false">
      <path d="M23 7.2a3 3 0 0 0-2.1-2.1C19 4.6 12 4.6 12 4.6s-7 0-8.9.5A3 3 0 0 0 1 7.2 31 31 0 0 0 .5 12a31 31 0 0 0 .5 4.8 3 3 0 0 0 2.1 2.1c1.9.5 8.9.5 8.9.5s7 0 8.9-.5a3 3 0 0 0 2.1-2.1c.4-1.6.5-3.2.5-4.8s-.1-3.2-.5-4.8zM9.7 15.1V8.9l5.8 3.1-5.8 3.1z" />
    </svg>
  )
}

const socialLinks: Array<{ label: string; icon: ReactNode }> = [
  { label: 'LinkedIn', icon: <LinkedInIcon /> },
  { label: 'Twitter', icon: <TwitterIcon /> },
  { label: 'YouTube', icon: <YouTubeIcon /> },
]

const footerLink = 'text-sm text-slate-300 transition-colors hover:text-amber-400 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 rounded-sm'

/** A footer link, or its label alone on the page it leads to: no link leads to the page it is on. */
function FooterLink({ label, to }: { label: string; to: string }) {
  const [location] = useLocation()
  if (normalizePath(location) === to) {
    return (
      <span aria-current="page" className="text-sm text-white">
        {label}
      </span>
    )
  }
  return (
    <Link href={to} className={footerLink}>
      {label}
    </Link>
  )
}

/** The site footer (spec 000 §2): placeholder links, contact, claims and copyright. */
export function Footer() {
  return (
    <footer className="relative overflow-hidden border-t border-white/10 bg-slate-950 print:hidden">
      <div className="pointer-events-none absolute inset-0" aria-hidden="true" data-testid="footer-particles">
        {Array.from({ length: FOOTER_PARTICLES }, (_, i) => (
          <span
            key={i}
            className="footer-particle absolute block h-1 w-1 rounded-full bg-amber-400/40"
            style={{ left: `${(i * 37 + 7) % 100}%`, top: `${(i * 53 + 11) % 100}%`, animationDelay: `${(i % 5) * 1.3}s` }}
          />
        ))}
      </div>
      <div className="relative mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 lg:grid-cols-4 lg:px-8">
        <div className="space-y-4 lg:col-span-2">
          <div className="flex items-center gap-2">
            <BrandMark className="h-8 w-8" />
            <span className="text-lg font-bold text-white">{productName}</span>
          </div>
          <p className="max-w-md text-sm text-slate-300">
            Immersive VR, AR and desktop skills training for electricians, plumbers, HVAC technicians, welders and every
            trade that builds and keeps the world running.
          </p>
          <ul className="flex gap-3" aria-label="Social media">
            {socialLinks.map((social) => (
              <li key={social.label}>
                <a
                  href="#"
                  aria-label={social.label}
                  className="inline-flex h-10 w-10 items-center justify-center rounded-full bg-white/5 text-slate-200 hover:bg-amber-500 hover:text-slate-950 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
                >
                  {social.icon}
                </a>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h2 className="mb-3 text-sm font-semibold uppercase tracking-wider text-white">Platform</h2>
          <ul className="space-y-2">
            {platformLinks.map(({ label, to }) => (
              <li key={label}>
                <FooterLink label={label} to={to} />
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h2 className="mb-3 text-sm font-semibold uppercase tracking-wider text-white">Contact</h2>
          <ul className="space-y-3 text-sm text-slate-300">
            <li>
              <a href={`mailto:${contactEmail}`} className={`${footerLink} inline-flex items-center gap-2`}>
                <Mail className="h-4 w-4" aria-hidden="true" />
                {contactEmail}
              </a>
            </li>
            <li className="flex items-center gap-2">
              <Headphones className="h-4 w-4 text-amber-400" aria-hidden="true" />
              24/7 Support Available
            </li>
            <li className="flex items-center gap-2">
              <ShieldCheck className="h-4 w-4 text-amber-400" aria-hidden="true" />
              Enterprise Security
            </li>
          </ul>
        </div>
      </div>
      <div className="relative border-t border-white/10">
        <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-3 px-4 py-6 text-sm text-slate-400 sm:px-6 md:flex-row lg:px-8">
          <p>© 2025 {productName}. All rights reserved.</p>
          <ul className="flex flex-wrap gap-4" aria-label="Legal">
            {legalLinks.map(({ label, to }) => (
              <li key={label}>
                <FooterLink label={label} to={to} />
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  )
}
