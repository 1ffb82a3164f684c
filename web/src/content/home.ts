/**
 * The home page's fixed tables (spec 000 §1, §3, §9): marketing claims,
 * organisations, showcase programmes, platform offerings, training category
 * cards and the trade skills demo. Media paths point at the loops
 * scripts/media.sh generates into web/public/media/.
 */

/** A video served from web/public/media in two encodings, with its poster. */
export interface MediaSet {
  /** Tried first: VP9 in WebM, the smaller file. */
  primary: string
  /** Tried when the primary fails: H.264 in MP4, which every browser plays. */
  fallback: string
  poster: string
}

function media(name: string): MediaSet {
  return { primary: `/media/${name}.webm`, fallback: `/media/${name}.mp4`, poster: `/media/${name}-poster.webp` }
}

/** The hero's background loop. */
export const heroVideo: MediaSet = media('hero')

/** Heading of the home hero; the route table's title for / is the same text. */
export const heroHeading = 'Immersive XR Training for the Skilled Trades'

/** A marketing claim shown as a figure and a label. */
export interface Claim {
  id: string
  value: string
  label: string
}

/** The hero's four stat cards (spec 000 §1). */
export const heroStats: readonly Claim[] = [
  { id: 'faster', value: '85%', label: 'Faster Skills Acquisition' },
  { id: 'retention', value: '90%', label: 'Knowledge Retention' },
  { id: 'cost', value: '60%', label: 'Training Cost Reduction' },
  { id: 'safe', value: '100%', label: 'Safe Learning Environment' },
]

/** The remaining claims of spec 000 §1, shown in the about section. */
export const reachStats: readonly Claim[] = [
  { id: 'students', value: '50K+', label: 'Students Trained' },
  { id: 'completion', value: '95%', label: 'Completion Rate' },
  { id: 'modules', value: '200+', label: 'Training Modules' },
]

/** The trusted organisations of the scrolling strip, shown as text (spec 000 §1). */
export const organisations = ['NECA', 'IBEW', 'UA', 'ABC', 'NCCER', 'AWS', 'PHCC', 'ACCA'] as const

/** The forgetting curve the about section answers (spec 000 §1). */
export const forgettingFacts: readonly Claim[] = [
  { id: 'day', value: '70%', label: 'of classroom content is forgotten within 24 hours' },
  { id: 'month', value: '~90%', label: 'is gone within a month without hands-on practice' },
]

/** A programme's delivery mode (spec 000 §3). */
export type ShowcaseCategory = 'VR' | 'AR' | 'Mixed Reality'

/** One programme of the video showcase (spec 000 §3). */
export interface ShowcaseProgram {
  id: string
  title: string
  description: string
  category: ShowcaseCategory
  /** mm:ss text. */
  duration: string
  thumbnail: string
  /** The file the 'Watch video in new tab' link opens. */
  videoUrl: string
  video: MediaSet
  features: readonly [string, string, string, string]
  certification: string
}

function program(p: Omit<ShowcaseProgram, 'thumbnail' | 'videoUrl' | 'video'>): ShowcaseProgram {
  const video = media(p.id)
  return { ...p, video, thumbnail: video.poster, videoUrl: video.fallback }
}

/** The five programmes, in the spec's order; the first is the default. */
export const showcasePrograms: readonly ShowcaseProgram[] = [
  program({
    id: 'electrical-vr',
    title: 'Electrical Safety & Panel Work',
    description:
      'Step inside a live commercial switchgear room in VR. Apprentices isolate energy sources, apply lockout/tagout and verify absence of voltage without ever touching an energized conductor.',
    category: 'VR',
    duration: '2:30',
    features: ['Lockout/tagout procedures', 'Arc flash hazard recognition', 'Panel troubleshooting', 'Absence-of-voltage testing'],
    certification: 'OSHA 10-Hour Electrical Safety',
  }),
  program({
    id: 'welding-ar',
    title: 'AR Welding Technique Trainer',
    description:
      'Augmented overlays coach torch angle, travel speed and arc length on a real coupon, scoring every pass against structural steel acceptance criteria.',
    category: 'AR',
    duration: '3:15',
    features: ['Real-time torch angle guidance', 'Bead consistency scoring', 'Joint preparation overlays', 'Weld defect identification'],
    certification: 'AWS D1.1 Structural Steel',
  }),
  program({
    id: 'hvac-mixed',
    title: 'HVAC System Diagnostics',
    description:
      'Mixed reality blends a virtual refrigeration circuit with the physical unit in front of the learner, making pressures, temperatures and refrigerant flow visible while they diagnose faults.',
    category: 'Mixed Reality',
    duration: '4:45',
    features: ['Refrigeration cycle visualization', 'Gauge manifold readings', 'Leak detection practice', 'Recovery and evacuation'],
    certification: 'EPA Section 608 Universal',
  }),
  program({
    id: 'plumbing-vr',
    title: 'Plumbing Systems Installation',
    description:
      'Lay out, size and join supply and drain-waste-vent piping in a full-scale virtual building, with code checks flagging every mistake before it becomes a leak.',
    category: 'VR',
    duration: '3:00',
    features: ['Pipe sizing and layout', 'Soldering and joining', 'Drain-waste-vent design', 'Code compliance checks'],
    certification: 'Master Plumber License',
  }),
  program({
    id: 'construction-ar',
    title: 'Construction Site Safety',
    description:
      'Walk a jobsite through AR and spot fall, trench, scaffold and equipment hazards in context, then practise the controls that keep every crew member going home safe.',
    category: 'AR',
    duration: '2:45',
    features: ['Fall protection setup', 'Scaffold inspection', 'Trench and excavation hazards', 'Heavy equipment awareness'],
    certification: 'Construction Safety Manager',
  }),
]

/** The three info tiles under the showcase. */
export const showcaseTiles = [
  { id: 'vr', title: 'VR Technology', text: 'Full immersion in 4K with hand tracking, haptic feedback and spatial audio.' },
  { id: 'ar', title: 'AR Integration', text: 'Digital guidance layered onto real tools and equipment on the shop floor.' },
  { id: 'safety', title: 'Safety Compliance', text: 'Scenarios mapped to OSHA, EPA and AWS requirements with tracked certification.' },
] as const

/** One of the four offerings (spec 000 §1); `id` is its anchor on the home page. */
export interface PlatformOffering {
  id: 'custom-content' | 'ready-made' | 'portal' | 'flow'
  title: string
  description: string
  points: readonly string[]
  action: { label: string; href: string }
}

/** The platform features, each card carrying its anchor (spec 000 §2). */
export const platformOfferings: readonly PlatformOffering[] = [
  {
    id: 'custom-content',
    title: 'Custom VR Content Development',
    description: "Your equipment, your procedures, your site: we build VR and AR scenarios around the way your crews actually work.",
    points: ['Built with Unity and Unreal', 'Digital twins of your equipment', 'Your safety procedures, step by step'],
    action: { label: 'Explore Custom Content', href: '/unity-unreal' },
  },
  {
    id: 'ready-made',
    title: 'Ready-Made Training Modules',
    description: 'A library of trade modules for electrical, plumbing, HVAC, welding, construction and more, ready to deploy today.',
    points: ['200+ training modules', 'Aligned with industry certifications', 'VR, AR and desktop delivery'],
    action: { label: 'Browse Training Modules', href: '/xr-training' },
  },
  {
    id: 'portal',
    title: 'PORTAL',
    description: 'The instructor learning management platform: assign training, follow every apprentice and prove competency.',
    points: ['Cohort and apprentice tracking', 'Safety scores and certifications', 'Exportable compliance reports'],
    action: { label: 'See PORTAL Analytics', href: '/analytics' },
  },
  {
    id: 'flow',
    title: 'FLOW',
    description: 'The low-code content creation studio: instructors assemble interactive XR lessons without writing code.',
    points: ['Drag-and-drop scene building', 'Visual scripting of interactions', 'Safety triggers and haptics'],
    action: { label: 'Open the FLOW Studio', href: '/original#authoring' },
  },
]

/** Text on each training category card; the slugs and labels come from content/navigation. */
export const categoryDescriptions: Record<string, string> = {
  technical: 'Master the tools, systems and procedures of your trade through guided, repeatable practice.',
  onboarding: 'Bring new hires up to speed on site rules, equipment and expectations before day one.',
  safety: 'Rehearse lockout/tagout, PPE and emergency response where mistakes cost nothing.',
  teamwork: 'Coordinate crews, hand-offs and communication in shared multi-user scenarios.',
  troubleshooting: 'Diagnose realistic faults under time pressure and learn from every wrong turn.',
  'hazard-recognition': 'Spot electrical, fall, trench and chemical hazards in lifelike job sites.',
}

/** The trades of the interactive demo; ids match the catalog's tradeId (spec 000 §3). */
export type TradeDemoId = 'electrical' | 'plumbing' | 'hvac' | 'welding'

/** One trade of the interactive trade skills demo (spec 000 §3). */
export interface TradeDemoItem {
  id: TradeDemoId
  name: string
  /** A lucide icon name the demo maps to a component. */
  icon: 'zap' | 'droplets' | 'thermometer' | 'flame'
  description: string
  difficulty: 'Intermediate' | 'Advanced' | 'Expert'
  duration: string
  modules: number
  safetyScore: number
  /** A module of this trade in the seeded catalog, used until GET /api/training-modules answers. */
  defaultModuleId: string
  /** The showcase loop the demo panel plays for this trade. */
  video: MediaSet
}

/** The four trade demo items, in the spec's order; the first is the default. */
export const tradeDemoItems: readonly TradeDemoItem[] = [
  {
    id: 'electrical',
    name: 'Electrical Systems',
    icon: 'zap',
    description: 'Panel wiring, circuit troubleshooting and lockout/tagout in a live-voltage simulation.',
    difficulty: 'Advanced',
    duration: '45 min',
    modules: 12,
    safetyScore: 98,
    defaultModuleId: 'electrical-lockout-tagout',
    video: media('electrical-vr'),
  },
  {
    id: 'plumbing',
    name: 'Plumbing & Pipefitting',
    icon: 'droplets',
    description: 'Pipe layout, joining techniques and leak isolation in full-scale virtual buildings.',
    difficulty: 'Intermediate',
    duration: '35 min',
    modules: 8,
    safetyScore: 95,
    defaultModuleId: 'plumbing-leak-isolation',
    video: media('plumbing-vr'),
  },
  {
    id: 'hvac',
    name: 'HVAC Systems',
    icon: 'thermometer',
    description: 'Refrigeration cycle diagnostics, charging and recovery on virtual rooftop units.',
    difficulty: 'Advanced',
    duration: '55 min',
    modules: 15,
    safetyScore: 92,
    defaultModuleId: 'hvac-refrigeration-cycle',
    video: media('hvac-mixed'),
  },
  {
    id: 'welding',
    name: 'Welding & Fabrication',
    icon: 'flame',
    description: 'Torch control, joint preparation and weld inspection with real-time technique feedback.',
    difficulty: 'Expert',
    duration: '60 min',
    modules: 18,
    safetyScore: 96,
    defaultModuleId: 'welding-shop-safety',
    video: media('welding-ar'),
  },
]

/** The demo's stages in order (spec 000 §4). */
export const demoStageIds = ['overview', 'setup', 'hands_on', 'assessment', 'completion'] as const
/** One of demoStageIds. */
export type DemoStageId = (typeof demoStageIds)[number]

/** A stage of the trade demo with what it shows while current. */
export interface DemoStage {
  id: DemoStageId
  label: string
  /** The panel's "current features" while this stage is current. */
  features: readonly string[]
}

/** The five stages with their labels (spec 000 §4). */
export const demoStages: readonly DemoStage[] = [
  { id: 'overview', label: 'Training Overview', features: ['Learning objectives', 'Safety briefing', 'Tools and equipment tour'] },
  { id: 'setup', label: 'VR Environment Setup', features: ['Headset calibration', 'Hand tracking check', 'Play area boundary'] },
  { id: 'hands_on', label: 'Hands-On Practice', features: ['Guided procedure steps', 'Haptic tool feedback', 'Real-time error coaching'] },
  { id: 'assessment', label: 'Skills Assessment', features: ['Timed practical test', 'Safety compliance scoring', 'Instructor review'] },
  { id: 'completion', label: 'Certification', features: ['Digital certificate', 'Skills transcript', 'Next module recommendations'] },
]

/** While the demo plays, it moves to the next stage this often; it stops on the last stage. */
export const DEMO_STAGE_INTERVAL_MS = 4000

/** The notice Firefox users see above the demo (spec 000 §2). */
export const firefoxNotice = 'Firefox detected - Demo optimized for your browser'
