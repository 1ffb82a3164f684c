import { useEffect, useState } from 'react'
import { DEMO_TICK_MS } from '@/content/live-demo'
import { initialStats, tickStats, type DemoStats, type RandomSource } from '../lib/stats'

/** The simulated counters: they change every 2 s while running and hold while stopped. */
export function useDemoTicker(running: boolean, random: RandomSource = Math.random): DemoStats {
  const [stats, setStats] = useState<DemoStats>(initialStats)
  useEffect(() => {
    if (!running) return
    const timer = setInterval(() => setStats((s) => tickStats(s, random)), DEMO_TICK_MS)
    return () => clearInterval(timer)
  }, [running, random])
  return stats
}
