import { cn } from '@/lib/utils'

/** The Journeyman XR mark: a headset visor over a hard-hat brim, drawn here (no external image). */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={cn('shrink-0', className)} aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#f59e0b" />
      <path d="M12 24h40a6 6 0 0 1 6 6v8a6 6 0 0 1-6 6H41l-4-6h-10l-4 6H12a6 6 0 0 1-6-6v-8a6 6 0 0 1 6-6z" fill="#0b1220" />
      <circle cx="21" cy="34" r="4" fill="#38bdf8" />
      <circle cx="43" cy="34" r="4" fill="#38bdf8" />
      <path d="M18 20c2-7 8-11 14-11s12 4 14 11" fill="none" stroke="#0b1220" strokeWidth="4" strokeLinecap="round" />
    </svg>
  )
}
