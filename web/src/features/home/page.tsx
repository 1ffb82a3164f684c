import { startTransition, useEffect, useState } from 'react'
import { GuidedTour } from '@/components/guided-tour/guided-tour'
import { scrollToId } from '@/lib/scroll'
import { About } from './components/about'
import { Hero } from './components/hero'
import { PlatformFeatures } from './components/platform-features'
import { TradeSkillsDemo } from './components/trade-skills-demo'
import { TrainingCategories } from './components/training-categories'
import { VideoShowcase } from './components/video-showcase'
import './home.css'

/**
 * The home page (spec 000 §2): hero, about, video showcase, platform
 * features, training categories and the trade skills demo, with the guided tour.
 */
export default function HomePage() {
  // The hero renders first; the sections below it render in a transition,
  // which React splits into short slices, so the first load has no long task
  // building the whole page at once (Lighthouse's Total Blocking Time).
  const [belowFold, setBelowFold] = useState(false)
  useEffect(() => startTransition(() => setBelowFold(true)), [])

  // An address naming an anchor (/#about, /#portal, /#video-showcase-hvac-mixed)
  // lands on it once the page has rendered.
  useEffect(() => {
    let id = window.location.hash.slice(1)
    try {
      id = decodeURIComponent(id)
    } catch {
      // A malformed escape names no element; scrollToId then finds nothing.
    }
    if (id) scrollToId(id)
  }, [])

  return (
    <>
      <Hero />
      {belowFold && (
        <>
          <About />
          <VideoShowcase />
          <PlatformFeatures />
          <TrainingCategories />
          <TradeSkillsDemo />
        </>
      )}
      <GuidedTour />
    </>
  )
}
