import type { ComponentProps } from 'react'
import { AlertDialog as AlertDialogPrimitive } from 'radix-ui'
import { buttonVariants } from '@/components/ui/button'
import { cn } from '@/lib/utils'
import { useReturnFocus } from './return-focus'

/**
 * A modal alert dialog (Radix): role="alertdialog", focus trapped inside and
 * moved to its Cancel button on open, the page behind it inert, and no
 * dismissal by a click outside — only by its own buttons or Escape.
 */
export const AlertDialog = AlertDialogPrimitive.Root

export function AlertDialogContent({ className, children, onCloseAutoFocus, ...props }: ComponentProps<typeof AlertDialogPrimitive.Content>) {
  const returnFocus = useReturnFocus(onCloseAutoFocus)
  return (
    <AlertDialogPrimitive.Portal>
      {/* Above toasts, menus and the guided tour: nothing may cover an alert. */}
      <AlertDialogPrimitive.Overlay className="fixed inset-0 z-[150] bg-black/75" />
      <AlertDialogPrimitive.Content
        className={cn(
          'fixed left-1/2 top-1/2 z-[155] max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl border border-white/15 bg-slate-900 p-6 text-slate-100 shadow-2xl focus-visible:outline-none',
          className,
        )}
        {...props}
        onCloseAutoFocus={returnFocus}
      >
        {children}
      </AlertDialogPrimitive.Content>
    </AlertDialogPrimitive.Portal>
  )
}

export function AlertDialogTitle({ className, ...props }: ComponentProps<typeof AlertDialogPrimitive.Title>) {
  return <AlertDialogPrimitive.Title className={cn('text-xl font-semibold text-white', className)} {...props} />
}

export function AlertDialogDescription({ className, ...props }: ComponentProps<typeof AlertDialogPrimitive.Description>) {
  return <AlertDialogPrimitive.Description className={cn('mt-2 text-sm text-slate-300', className)} {...props} />
}

/** The dismissing button; Radix focuses it when the dialog opens. */
export function AlertDialogCancel({ className, ...props }: ComponentProps<typeof AlertDialogPrimitive.Cancel>) {
  return <AlertDialogPrimitive.Cancel className={cn(buttonVariants({ variant: 'default' }), className)} {...props} />
}
