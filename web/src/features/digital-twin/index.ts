/** The digital twin feature's public export: the monitor, for pages that embed it (/advanced). */
export { DigitalTwinMonitor } from './components/digital-twin-monitor'
