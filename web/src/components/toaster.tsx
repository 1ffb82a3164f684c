import { useToast } from '@/hooks/use-toast'
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport, TOAST_DURATION_MS } from '@/components/ui/toast'
import { useTimeoutMultiplier } from '@/lib/appearance'

export { toast, useToast } from '@/hooks/use-toast'

/** Renders the store's notifications in Radix's toast region. */
export function Toaster() {
  const { toasts } = useToast()
  // Learners who asked for extended timeouts get longer to read each notification.
  const duration = TOAST_DURATION_MS * useTimeoutMultiplier()
  return (
    <ToastProvider duration={duration}>
      {toasts.map(({ id, title, description, action, ...props }) => (
        <Toast key={id} {...props}>
          <div className="grid gap-1">
            {title ? <ToastTitle>{title}</ToastTitle> : null}
            {description ? <ToastDescription>{description}</ToastDescription> : null}
          </div>
          {action}
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport />
    </ToastProvider>
  )
}
