/** The personalization feature's public export: the wizard, for pages that embed it (/advanced). */
export { default as PersonalizationWizard } from './page'
