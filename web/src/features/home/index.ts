/** The home feature's public export: the trade skills demo, which /demo shows hands-on. */
export { TradeSkillsDemo } from './components/trade-skills-demo'
