import { useEffect, useState } from 'react'

/** The time now, in ms, renewed every intervalMs: "2 min ago" moves on while the page stays open. */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs)
    return () => clearInterval(timer)
  }, [intervalMs])
  return now
}
