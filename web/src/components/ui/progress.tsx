import type { ComponentProps } from 'react'
import { Progress as ProgressPrimitive } from 'radix-ui'
import { cn } from '@/lib/utils'

/** A progress bar, value 0–100; give it an aria-label. */
export function Progress({ className, value, ...props }: ComponentProps<typeof ProgressPrimitive.Root>) {
  const v = Math.max(0, Math.min(100, value ?? 0))
  return (
    <ProgressPrimitive.Root className={cn('relative h-2 w-full overflow-hidden rounded-full bg-slate-700', className)} value={v} {...props}>
      <ProgressPrimitive.Indicator className="h-full bg-amber-500 transition-[width]" style={{ width: `${v}%` }} />
    </ProgressPrimitive.Root>
  )
}
