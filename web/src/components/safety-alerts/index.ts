/**
 * Safety alerts received on the realtime channel: a queue, an alert dialog
 * that interrupts until acknowledged, and the current alert for the XR scene.
 */
export { useSafetyAlerts, type SafetyAlertState } from '@/components/safety-alerts/use-safety-alerts'
export { SafetyAlertDialog, type SafetyAlertDialogProps } from '@/components/safety-alerts/safety-alert-dialog'
export { safetyAlertText, alertFromMessage, enqueue, acknowledge, type SafetyAlert, type ReceivedSafetyAlertPayload } from '@/components/safety-alerts/queue'
