/** The analytics feature's public export: the dashboard, for pages that embed it (/advanced). */
export { default as AnalyticsDashboard } from './page'
