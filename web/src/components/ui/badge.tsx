import type { HTMLAttributes } from 'react'
import { cva, type VariantProps } from 'class-variance-authority'
import { cn } from '@/lib/utils'

/** The badge styles. */
export const badgeVariants = cva(
  'inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-semibold leading-none',
  {
    variants: {
      variant: {
        default: 'border-transparent bg-amber-500 text-slate-950',
        secondary: 'border-transparent bg-sky-500/20 text-sky-200',
        outline: 'border-white/25 text-slate-100',
        live: 'border-transparent bg-red-600 text-white',
        passed: 'border-transparent bg-emerald-500/20 text-emerald-200',
        failed: 'border-transparent bg-red-500/20 text-red-200',
      },
    },
    defaultVariants: { variant: 'default' },
  },
)

/** A small label such as 'Resources' or 'LIVE'. */
export function Badge({ className, variant, ...props }: HTMLAttributes<HTMLSpanElement> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ variant }), className)} {...props} />
}
