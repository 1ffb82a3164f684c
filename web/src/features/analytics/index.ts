/** The analytics feature's public export: the dashboard, for pages that embed it (/advanced). */
export { AnalyticsDashboard } from './page'
