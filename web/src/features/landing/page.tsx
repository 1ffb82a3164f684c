import { RevealSection } from '@/components/reveal'
import { useTrades } from '@/api/catalog'
import { useLearningPreferences, useSkillAssessments } from '@/api/learning'
import { useMarketingEquipment } from '@/api/twin'
import { AnalyticsSection } from './components/analytics-section'
import { AuthoringStudio } from './components/authoring-studio'
import { LearningDashboard } from './components/dashboard'
import { DigitalTwinSection } from './components/digital-twin-section'
import { ImmersiveExperiences } from './components/experiences'
import { LandingHero } from './components/hero'
import { TradeTrainingModules } from './components/trade-modules'

/**
 * The original landing page (/original): hero, then the sections of spec
 * 000 §2 in order. It also makes the four reads whose answers it does not
 * show (§7); their failures leave the page untouched.
 */
export default function LandingPage() {
  useTrades()
  useMarketingEquipment()
  useLearningPreferences()
  useSkillAssessments()

  return (
    <>
      <LandingHero />
      <RevealSection id="video-showcase" aria-labelledby="experiences-title" className="scroll-mt-16">
        <ImmersiveExperiences />
      </RevealSection>
      <RevealSection id="dashboard" aria-labelledby="dashboard-title" className="scroll-mt-16 bg-slate-900/40">
        <LearningDashboard />
      </RevealSection>
      <RevealSection id="authoring" aria-labelledby="authoring-title" className="scroll-mt-16">
        <AuthoringStudio />
      </RevealSection>
      <RevealSection id="training" aria-labelledby="training-title" className="scroll-mt-16 bg-slate-900/40">
        <TradeTrainingModules />
      </RevealSection>
      <RevealSection id="analytics" aria-labelledby="analytics-title" className="scroll-mt-16">
        <AnalyticsSection />
      </RevealSection>
      <RevealSection id="digital-twin" aria-labelledby="digital-twin-title" className="scroll-mt-16 bg-slate-900/40">
        <DigitalTwinSection />
      </RevealSection>
    </>
  )
}
