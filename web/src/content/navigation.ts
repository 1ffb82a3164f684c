/** One entry of the navigation's Training dropdown (spec 000 §2). */
export interface TrainingNavEntry {
  label: string
  href: string
  description: string
}

/** The Training dropdown, in the spec's order. */
export const trainingNav: readonly TrainingNavEntry[] = [
  { label: 'XR Training Center', href: '/xr-training', description: 'Immersive VR/AR/Desktop training sessions' },
  { label: 'Start Training', href: '/demo', description: 'Interactive hands-on skills training demo' },
  { label: 'VR/AR Programs', href: '/unity-unreal', description: 'Certified immersive training programs' },
  { label: 'AI Learning Paths', href: '/ai-learning-paths', description: 'Personalized training recommendations' },
  { label: 'Advanced Features', href: '/advanced', description: 'Analytics, digital twins & specializations' },
]

/** An industry linked from the navigation; its slug is the lower-case path segment. */
export interface Industry {
  slug: string
  label: string
}

/** The Industries dropdown, in the spec's order. */
export const industries: readonly Industry[] = [
  { slug: 'electrical', label: 'Electrical' },
  { slug: 'plumbing', label: 'Plumbing' },
  { slug: 'hvac', label: 'HVAC' },
  { slug: 'welding', label: 'Welding' },
  { slug: 'construction', label: 'Construction' },
  { slug: 'automotive', label: 'Automotive' },
  { slug: 'manufacturing', label: 'Manufacturing' },
]

/** A training category page held as data (spec 000 §2: /training/{category}). */
export interface TrainingCategory {
  slug: string
  label: string
}

/** The six training categories, in the spec's order. */
export const trainingCategories: readonly TrainingCategory[] = [
  { slug: 'technical', label: 'Technical Skills' },
  { slug: 'onboarding', label: 'Onboarding' },
  { slug: 'safety', label: 'Safety Training' },
  { slug: 'teamwork', label: 'Teamwork' },
  { slug: 'troubleshooting', label: 'Troubleshooting' },
  { slug: 'hazard-recognition', label: 'Hazard Recognition' },
]

/** The footer's contact address. */
export const contactEmail = 'training@journeymanxr.com'

/** The product name shown in the navigation, the footer and page titles. */
export const productName = 'Journeyman XR'
