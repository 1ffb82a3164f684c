import { ShieldAlert } from 'lucide-react'
import { cn } from '@/lib/utils'

/** The safety check a step performs, as a step list and the welding checklist show it. */
export function SafetyCheckNote({ description, id, className }: { description: string; id?: string; className?: string }) {
  return (
    <span id={id} className={cn('inline-flex items-start gap-1 text-amber-300', className)}>
      <ShieldAlert className="mt-0.5 size-3 shrink-0" aria-hidden="true" />
      Safety check: {description}
    </span>
  )
}
