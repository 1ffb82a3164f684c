export { DemoRequestButton, DemoRequestDialog, demoInterests, type DemoRequestDialogProps } from './demo-request-dialog'
