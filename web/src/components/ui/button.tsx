import { forwardRef, type ButtonHTMLAttributes, type MouseEvent } from 'react'
import { Slot } from 'radix-ui'
import { cva, type VariantProps } from 'class-variance-authority'
import { cn } from '@/lib/utils'

/** The button styles, shared by buttons and links that look like buttons. */
export const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md text-sm font-semibold transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 focus-visible:ring-offset-2 focus-visible:ring-offset-slate-950 disabled:pointer-events-none disabled:opacity-50 aria-disabled:pointer-events-none aria-disabled:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0',
  {
    variants: {
      variant: {
        default: 'bg-amber-500 text-slate-950 hover:bg-amber-400',
        secondary: 'bg-slate-800 text-white hover:bg-slate-700',
        outline: 'border border-white/20 bg-transparent text-white hover:bg-white/10',
        ghost: 'text-slate-200 hover:bg-white/10 hover:text-white',
        destructive: 'bg-red-600 text-white hover:bg-red-700',
        link: 'text-amber-400 underline-offset-4 hover:underline',
      },
      size: {
        default: 'h-10 px-4 py-2',
        sm: 'h-9 px-3',
        lg: 'h-12 px-6 text-base',
        icon: 'h-10 w-10',
      },
    },
    defaultVariants: { variant: 'default', size: 'default' },
  },
)

/** Props of Button; asChild renders the single child (a link) with the button's look. */
export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, VariantProps<typeof buttonVariants> {
  asChild?: boolean
  /**
   * Looks and is announced as unavailable (aria-disabled) and a press does nothing, not even submit its form,
   * but the button keeps focus, where `disabled` would drop it to the page: for a button whose action is
   * running, cannot run yet, or is already in effect.
   */
  unavailable?: boolean
}

/** A button in the site's styles. */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { className, variant, size, asChild = false, type, unavailable, onClick, ...props },
  ref,
) {
  if (asChild) {
    return <Slot.Root className={cn(buttonVariants({ variant, size, className }))} ref={ref} onClick={onClick} {...props} />
  }
  return (
    <button
      type={type ?? 'button'}
      className={cn(buttonVariants({ variant, size, className }))}
      ref={ref}
      aria-disabled={unavailable || undefined}
      onClick={unavailable ? ignorePress : onClick}
      {...props}
    />
  )
})

// Cancelling the click also cancels a submit button's submission, Enter in a field included.
function ignorePress(event: MouseEvent<HTMLButtonElement>) {
  event.preventDefault()
}
