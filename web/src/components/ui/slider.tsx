import type { ComponentProps } from 'react'
import { Slider as SliderPrimitive } from 'radix-ui'
import { cn } from '@/lib/utils'

/** A one-thumb slider (Radix); `label` names the thumb for assistive technology. */
export function Slider({ className, label, ...props }: ComponentProps<typeof SliderPrimitive.Root> & { label: string }) {
  return (
    <SliderPrimitive.Root className={cn('relative flex h-5 w-full touch-none select-none items-center', className)} {...props}>
      <SliderPrimitive.Track className="relative h-1.5 grow overflow-hidden rounded-full bg-slate-700">
        <SliderPrimitive.Range className="absolute h-full bg-amber-500" />
      </SliderPrimitive.Track>
      <SliderPrimitive.Thumb
        aria-label={label}
        className="block h-5 w-5 rounded-full border-2 border-amber-500 bg-slate-950 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
      />
    </SliderPrimitive.Root>
  )
}
