/** The AR welding feature's public export: the simulator, for pages that embed it (/advanced). */
export { WeldingSimulator } from './components/welding-simulator'
