import { useEffect, useState, type ReactNode } from 'react'
import type { ToastActionElement, ToastProps } from '@/components/ui/toast'

/** At most this many notifications are shown; a new one replaces the oldest (spec 000 §9). */
export const TOAST_LIMIT = 1
/** A dismissed notification stays in the store this long before it is removed (spec 000 §9). */
export const TOAST_REMOVE_DELAY_MS = 1_000_000

/** A notification in the store. */
export interface ToasterToast extends Omit<ToastProps, 'title'> {
  id: string
  title?: ReactNode
  description?: ReactNode
  action?: ToastActionElement
}

/** What toast() accepts: a title, a description and a variant ('default' or 'destructive'). */
export type ToastInput = Omit<ToasterToast, 'id'>

type Action =
  | { type: 'ADD_TOAST'; toast: ToasterToast }
  | { type: 'UPDATE_TOAST'; toast: Partial<ToasterToast> & { id: string } }
  | { type: 'DISMISS_TOAST'; toastId?: string }
  | { type: 'REMOVE_TOAST'; toastId?: string }

/** The store's state. */
export interface ToastState {
  toasts: ToasterToast[]
}

let count = 0
function genId(): string {
  count = (count + 1) % Number.MAX_SAFE_INTEGER
  return count.toString()
}

const removeTimeouts = new Map<string, ReturnType<typeof setTimeout>>()

function scheduleRemoval(toastId: string) {
  if (removeTimeouts.has(toastId)) return
  removeTimeouts.set(
    toastId,
    setTimeout(() => {
      removeTimeouts.delete(toastId)
      dispatch({ type: 'REMOVE_TOAST', toastId })
    }, TOAST_REMOVE_DELAY_MS),
  )
}

/** The pure state transition of the toast store. */
export function reducer(state: ToastState, action: Action): ToastState {
  switch (action.type) {
    case 'ADD_TOAST':
      return { ...state, toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) }
    case 'UPDATE_TOAST':
      return { ...state, toasts: state.toasts.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t)) }
    case 'DISMISS_TOAST': {
      const { toastId } = action
      return {
        ...state,
        toasts: state.toasts.map((t) => (toastId === undefined || t.id === toastId ? { ...t, open: false } : t)),
      }
    }
    case 'REMOVE_TOAST':
      if (action.toastId === undefined) return { ...state, toasts: [] }
      return { ...state, toasts: state.toasts.filter((t) => t.id !== action.toastId) }
  }
}

const listeners: Array<(state: ToastState) => void> = []
let memoryState: ToastState = { toasts: [] }

function dispatch(action: Action) {
  if (action.type === 'DISMISS_TOAST') {
    // Side effect kept out of the reducer: dismissed toasts are removed later.
    const ids = action.toastId !== undefined ? [action.toastId] : memoryState.toasts.map((t) => t.id)
    ids.forEach(scheduleRemoval)
  }
  memoryState = reducer(memoryState, action)
  listeners.forEach((listener) => listener(memoryState))
}

/** Shows a notification and returns handles to update or dismiss it. */
export function toast(input: ToastInput) {
  const id = genId()
  const update = (props: Partial<ToasterToast>) => dispatch({ type: 'UPDATE_TOAST', toast: { ...props, id } })
  const dismiss = () => dispatch({ type: 'DISMISS_TOAST', toastId: id })
  dispatch({
    type: 'ADD_TOAST',
    toast: {
      ...input,
      id,
      open: true,
      onOpenChange: (open) => {
        if (!open) dismiss()
      },
    },
  })
  return { id, dismiss, update }
}

/** The toast store as React state, with toast() and dismiss(). */
export function useToast() {
  const [state, setState] = useState<ToastState>(memoryState)
  useEffect(() => {
    listeners.push(setState)
    return () => {
      const index = listeners.indexOf(setState)
      if (index > -1) listeners.splice(index, 1)
    }
  }, [])
  return {
    ...state,
    toast,
    dismiss: (toastId?: string) => dispatch({ type: 'DISMISS_TOAST', toastId }),
  }
}

/** Test helper: empties the store and cancels pending removals. */
export function resetToastsForTests() {
  removeTimeouts.forEach((t) => clearTimeout(t))
  removeTimeouts.clear()
  memoryState = { toasts: [] }
  listeners.forEach((listener) => listener(memoryState))
}
