import type { HTMLAttributes } from 'react'
import { useReveal } from '@/hooks/use-reveal'
import { cn } from '@/lib/utils'

/**
 * A section that fades in: it gains data-visible="true" and the class
 * "is-visible" once 10% of it is in view (see useReveal).
 */
export function RevealSection({ className, children, ...props }: HTMLAttributes<HTMLElement>) {
  const [ref, visible] = useReveal<HTMLElement>()
  return (
    <section
      ref={ref}
      data-reveal=""
      data-visible={visible ? 'true' : 'false'}
      className={cn('reveal', visible && 'is-visible', className)}
      {...props}
    >
      {children}
    </section>
  )
}
