/**
 * The guided tour's eight steps, in order (spec 000 §4). A target is a CSS
 * selector of a data-tour attribute; a step whose target is missing or not
 * displayed (the desktop navigation on a phone) is shown in the centre.
 */

/** Where a step's guide sits relative to its target. */
export type TourPosition = 'center' | 'top' | 'bottom'

/** One step of the tour (spec 000 §3: id, title, description, optional target, position, interactive flag, guide action). */
export interface TourStep {
  id: string
  title: string
  description: string
  target?: string
  position: TourPosition
  /** The visitor may use the highlighted control while the tour is open. */
  interactive: boolean
  /** What the guide invites the visitor to do. */
  action: string
}

export const tourSteps: readonly TourStep[] = [
  {
    id: 'welcome',
    title: 'Welcome to Journeyman XR',
    description:
      'Immersive VR, AR and desktop training for the skilled trades. This short tour shows you where everything is.',
    position: 'center',
    interactive: false,
    action: 'Press Next to begin',
  },
  {
    id: 'xr-training',
    title: 'XR Training Center',
    description: 'Open the Training menu for the XR Training Center, the hands-on demo, VR/AR programs and AI learning paths.',
    target: '[data-tour="nav-training"]',
    position: 'bottom',
    interactive: true,
    action: 'Open the Training menu',
  },
  {
    id: 'live-demo',
    title: 'Watch a Live Demo',
    description: 'See a live XR training session streamed from a real headset, with an instructor walking through it.',
    target: '[data-tour="hero-live-demo"]',
    position: 'bottom',
    interactive: true,
    action: 'Choose Watch Live Demo',
  },
  {
    id: 'industries',
    title: 'Training for Every Trade',
    description: 'Electrical, plumbing, HVAC, welding, construction, automotive and manufacturing each have their own programmes.',
    target: '[data-tour="nav-industries"]',
    position: 'bottom',
    interactive: true,
    action: 'Pick your industry',
  },
  {
    id: 'analytics',
    title: 'Track Progress with Analytics',
    description: 'Instructors follow completion, safety scores and certifications for every apprentice.',
    target: '[data-tour="nav-analytics"]',
    position: 'bottom',
    interactive: true,
    action: 'Open Analytics',
  },
  {
    id: 'learning-hub',
    title: 'Learning Hub Resources',
    description: 'Guides, reference material and study resources that back up every XR session.',
    target: '[data-tour="nav-learning-hub"]',
    position: 'bottom',
    interactive: true,
    action: 'Browse the Learning Hub',
  },
  {
    id: 'safety-first',
    title: 'Safety First',
    description: 'Practise dangerous procedures in a 100% safe environment: mistakes teach, they never injure.',
    target: '[data-tour="hero-safety"]',
    position: 'top',
    interactive: false,
    action: 'Learn without risk',
  },
  {
    id: 'ready-to-start',
    title: 'Ready to Start?',
    description: 'Jump into the XR Training Center and begin your first module now.',
    position: 'center',
    interactive: false,
    action: 'Press Start Training',
  },
]

/** Local storage key holding 'true' once the tour has been completed or skipped. */
export const TOUR_STORAGE_KEY = 'journeyman-tour-completed'
/** A first visit opens the tour after this delay (spec 000 §9). */
export const TOUR_AUTO_OPEN_DELAY_MS = 2000
/** Each step positions its guide after this delay (spec 000 §9). */
export const TOUR_POSITION_DELAY_MS = 300
/** Gap between a target and its guide (spec 000 §9). */
export const TOUR_GUIDE_OFFSET_PX = 20
/** Particles around a highlighted target (spec 000 §9). */
export const TOUR_PARTICLES = 12
