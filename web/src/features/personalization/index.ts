/** The personalization feature's public export: the wizard, for pages that embed it (/advanced). */
export { PersonalizationWizard } from './page'
