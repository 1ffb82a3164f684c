import { forwardRef, type ComponentPropsWithoutRef, type ComponentRef, type ReactElement } from 'react'
import { Toast as ToastPrimitives } from 'radix-ui'
import { cva, type VariantProps } from 'class-variance-authority'
import { X } from 'lucide-react'
import { cn } from '@/lib/utils'

/** Notification defaults (spec 000 §9). */
export const TOAST_DURATION_MS = 5000
export const TOAST_SWIPE_THRESHOLD_PX = 50

/** Radix's provider with the spec's duration and swipe; F8 is Radix's default region hotkey. */
export function ToastProvider(props: ComponentPropsWithoutRef<typeof ToastPrimitives.Provider>) {
  return (
    <ToastPrimitives.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
      label="Notification"
      {...props}
    />
  )
}

/** The region the toasts live in (F8 focuses it). */
export const ToastViewport = forwardRef<
  ComponentRef<typeof ToastPrimitives.Viewport>,
  ComponentPropsWithoutRef<typeof ToastPrimitives.Viewport>
>(function ToastViewport({ className, ...props }, ref) {
  return (
    <ToastPrimitives.Viewport
      ref={ref}
      hotkey={['F8']}
      className={cn(
        // At the bottom on a phone too: at the top a toast covered the header and its menu button for seconds.
        'fixed bottom-0 z-[100] flex max-h-screen w-full flex-col p-4 outline-none sm:right-0 md:max-w-[420px]',
        className,
      )}
      {...props}
    />
  )
})

const toastVariants = cva(
  'group pointer-events-auto relative flex w-full items-center justify-between gap-4 overflow-hidden rounded-lg border p-5 pr-8 shadow-xl transition-all data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)] data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=move]:transition-none data-[state=closed]:opacity-0 data-[state=open]:animate-[toast-in_200ms_ease-out]',
  {
    variants: {
      variant: {
        default: 'border-white/15 bg-slate-900 text-white',
        destructive: 'border-red-500 bg-red-700 text-white',
      },
    },
    defaultVariants: { variant: 'default' },
  },
)

/** One notification. */
export const Toast = forwardRef<
  ComponentRef<typeof ToastPrimitives.Root>,
  ComponentPropsWithoutRef<typeof ToastPrimitives.Root> & VariantProps<typeof toastVariants>
>(function Toast({ className, variant, ...props }, ref) {
  return <ToastPrimitives.Root ref={ref} className={cn(toastVariants({ variant }), className)} {...props} />
})

/** A button inside a toast that does something. */
export const ToastAction = forwardRef<
  ComponentRef<typeof ToastPrimitives.Action>,
  ComponentPropsWithoutRef<typeof ToastPrimitives.Action>
>(function ToastAction({ className, ...props }, ref) {
  return (
    <ToastPrimitives.Action
      ref={ref}
      className={cn(
        'inline-flex h-8 shrink-0 items-center justify-center rounded-md border border-white/25 px-3 text-sm font-medium hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400',
        className,
      )}
      {...props}
    />
  )
})

/** The toast's close (X) button. */
export const ToastClose = forwardRef<
  ComponentRef<typeof ToastPrimitives.Close>,
  ComponentPropsWithoutRef<typeof ToastPrimitives.Close>
>(function ToastClose({ className, ...props }, ref) {
  return (
    <ToastPrimitives.Close
      ref={ref}
      aria-label="Dismiss notification"
      className={cn(
        'absolute right-2 top-2 rounded-md p-1 text-white/70 hover:text-white focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-400',
        className,
      )}
      {...props}
    >
      <X className="h-4 w-4" aria-hidden="true" />
    </ToastPrimitives.Close>
  )
})

/** The toast's heading. */
export const ToastTitle = forwardRef<
  ComponentRef<typeof ToastPrimitives.Title>,
  ComponentPropsWithoutRef<typeof ToastPrimitives.Title>
>(function ToastTitle({ className, ...props }, ref) {
  return <ToastPrimitives.Title ref={ref} className={cn('text-sm font-semibold', className)} {...props} />
})

/** The toast's text. */
export const ToastDescription = forwardRef<
  ComponentRef<typeof ToastPrimitives.Description>,
  ComponentPropsWithoutRef<typeof ToastPrimitives.Description>
>(function ToastDescription({ className, ...props }, ref) {
  return <ToastPrimitives.Description ref={ref} className={cn('text-sm opacity-90', className)} {...props} />
})

/** Props a toast accepts. */
export type ToastProps = ComponentPropsWithoutRef<typeof Toast>
/** An action element placed in a toast. */
export type ToastActionElement = ReactElement<typeof ToastAction>
