/**
 * The Unity/Unreal page's catalog (seed 001 §2, §4): fixed page data, kept
 * with the site's code because each entry is tied to a build of the scene
 * player. Every module that can launch or stream names the training-catalog
 * module whose scene our own WebXR player runs; nothing loads from an
 * external host.
 */

export type UnityStatus = 'available' | 'in-development' | 'coming-soon'
export type UnrealStatus = 'live' | 'beta' | 'development'

interface CatalogEntry {
  id: string
  title: string
  trade: string
  description: string
  skills: readonly string[]
  /** The training-catalog module whose scene runs; required where the entry can launch or stream. */
  moduleId?: string
}

/** A Unity WebGL training module. */
export interface UnityModule extends CatalogEntry {
  status: UnityStatus
  durationMinutes: number
  difficulty: 'Beginner' | 'Intermediate' | 'Advanced'
}

/** An Unreal Engine streaming project. */
export interface UnrealProject extends CatalogEntry {
  status: UnrealStatus
  environment: string
}

export const unityStatusLabel: Record<UnityStatus, string> = {
  available: 'Available',
  'in-development': 'In development',
  'coming-soon': 'Coming soon',
}

export const unrealStatusLabel: Record<UnrealStatus, string> = { live: 'Live', beta: 'Beta', development: 'Development' }

/** Why a module that cannot launch is disabled. */
export const unityUnavailableReason: Record<Exclude<UnityStatus, 'available'>, string> = {
  'in-development': 'In development: it launches once instructors have field-tested it.',
  'coming-soon': 'Coming soon: this module is planned but not built yet.',
}

/** Why a project that cannot stream is disabled. */
export const unrealUnavailableReason: Record<Exclude<UnrealStatus, 'live'>, string> = {
  beta: 'In beta with pilot training centres: streaming opens to everyone when it goes live.',
  development: 'In development: not streamable yet.',
}

export const unityModules: readonly UnityModule[] = [
  {
    id: 'unity-loto-mcc',
    title: 'Lockout/Tagout on a Motor Control Centre',
    trade: 'Electrical',
    description: 'Isolate a 480 V motor starter: arc-rated PPE, open the disconnect, apply lock and tag, prove the tester, verify absence of voltage.',
    skills: ['Energy isolation', 'Live-dead-live testing', 'Arc-flash PPE'],
    moduleId: 'electrical-lockout-tagout',
    status: 'available',
    durationMinutes: 20,
    difficulty: 'Intermediate',
  },
  {
    id: 'unity-leak-isolation',
    title: 'Burst Pipe Leak Isolation',
    trade: 'Plumbing',
    description: 'Kill power to nearby appliances, close the right shut-off, relieve pressure and clamp the leaking fitting.',
    skills: ['Shut-off valves', 'Pressure relief', 'Water-damage control'],
    moduleId: 'plumbing-leak-isolation',
    status: 'available',
    durationMinutes: 15,
    difficulty: 'Beginner',
  },
  {
    id: 'unity-refrigerant-gauges',
    title: 'Refrigerant Gauge Hook-up',
    trade: 'HVAC',
    description: 'Close the manifold, connect low- and high-side hoses to the service ports and read suction and discharge pressures.',
    skills: ['Manifold gauges', 'Service ports', 'Refrigerant PPE'],
    moduleId: 'hvac-refrigerant-gauges',
    status: 'available',
    durationMinutes: 20,
    difficulty: 'Intermediate',
  },
  {
    id: 'unity-joint-prep',
    title: 'Weld Joint Preparation',
    trade: 'Welding',
    description: 'Clear combustibles, grind the bevel and land, clean the joint to bright metal and fit it up with the right root opening.',
    skills: ['Bevel grinding', 'Fit-up', 'Hot-work safety'],
    moduleId: 'welding-joint-preparation',
    status: 'available',
    durationMinutes: 25,
    difficulty: 'Beginner',
  },
  {
    id: 'unity-fall-protection',
    title: 'Personal Fall Arrest at a Roof Edge',
    trade: 'Construction',
    description: 'Inspect harness webbing, hardware and lanyard, then tie off to a rated anchor before approaching the edge.',
    skills: ['Harness inspection', 'Anchorage', 'Fall clearance'],
    moduleId: 'construction-fall-protection',
    status: 'available',
    durationMinutes: 15,
    difficulty: 'Beginner',
  },
  {
    id: 'unity-stair-layout',
    title: 'Stair Stringer Layout',
    trade: 'Carpentry',
    description: 'Work out rise and run from total rise, lay out a stringer with a framing square and cut it within code tolerances.',
    skills: ['Rise and run', 'Framing square', 'Code limits'],
    status: 'in-development',
    durationMinutes: 30,
    difficulty: 'Intermediate',
  },
  {
    id: 'unity-motor-troubleshooting',
    title: 'Three-Phase Motor Control Troubleshooting',
    trade: 'Electrical',
    description: 'Trace a start/stop circuit with a seal-in contact and find the open overload, the failed coil or the loose control wire.',
    skills: ['Ladder diagrams', 'Control circuits', 'Meter use'],
    status: 'in-development',
    durationMinutes: 35,
    difficulty: 'Advanced',
  },
  {
    id: 'unity-confined-space',
    title: 'Confined Space Entry',
    trade: 'Manufacturing',
    description: 'Permit, atmospheric testing top to bottom, ventilation, attendant and retrieval set-up before entering a tank.',
    skills: ['Gas monitoring', 'Entry permits', 'Rescue planning'],
    status: 'coming-soon',
    durationMinutes: 30,
    difficulty: 'Advanced',
  },
  {
    id: 'unity-crane-signals',
    title: 'Crane Hand Signals and Rigging',
    trade: 'Heavy equipment',
    description: 'Choose slings and hitches for the load, inspect the rigging and direct the operator with standard hand signals.',
    skills: ['Sling angles', 'Rigging inspection', 'Hand signals'],
    status: 'coming-soon',
    durationMinutes: 25,
    difficulty: 'Intermediate',
  },
]

export const unrealProjects: readonly UnrealProject[] = [
  {
    id: 'unreal-temporary-grounds',
    title: 'Distribution Line Temporary Grounding',
    trade: 'Lineworker',
    description: 'Air-test rubber gloves, test the de-energized line and install protective grounds ground-end first, in a photoreal substation yard.',
    skills: ['Equipotential grounding', 'Rubber gloving', 'Hot-stick work'],
    moduleId: 'lineworker-temporary-grounds',
    status: 'live',
    environment: 'Rural distribution line at dusk',
  },
  {
    id: 'unreal-table-saw',
    title: 'Table Saw Rip Cut',
    trade: 'Carpentry',
    description: 'Unplug to adjust, fit the riving knife and guard, set fence and blade height, then rip with a push stick out of the kickback line.',
    skills: ['Kickback prevention', 'Fence set-up', 'Push sticks'],
    moduleId: 'carpentry-table-saw-rip',
    status: 'live',
    environment: 'Cabinet shop',
  },
  {
    id: 'unreal-tower-rescue',
    title: 'Wind Turbine Tower Rescue',
    trade: 'Solar & wind',
    description: 'Lower an injured technician from the nacelle with a descent device after securing the turbine.',
    skills: ['Rescue descent', 'Turbine lockout', 'Casualty handling'],
    status: 'beta',
    environment: '80 m nacelle in high wind',
  },
  {
    id: 'unreal-ev-disconnect',
    title: 'EV High-Voltage Disconnect',
    trade: 'Automotive',
    description: 'Wear class 0 gloves, pull the service disconnect, wait out the capacitor discharge and verify zero volts at the inverter.',
    skills: ['HV safety', 'Service disconnect', 'Voltage verification'],
    status: 'beta',
    environment: 'Dealer service bay',
  },
  {
    id: 'unreal-excavation',
    title: 'Trenching Near Buried Utilities',
    trade: 'Heavy equipment',
    description: 'Read locate marks, hand-dig the tolerance zone and bench the trench before the excavator works near a gas main.',
    skills: ['Utility locates', 'Trench protection', 'Excavator control'],
    status: 'development',
    environment: 'Urban street works',
  },
  {
    id: 'unreal-hot-work',
    title: 'Refinery Hot Work Permit',
    trade: 'Welding',
    description: 'Gas-test the area, post a fire watch and shield nearby process lines before welding on a live unit.',
    skills: ['Hot-work permits', 'Fire watch', 'Gas testing'],
    status: 'development',
    environment: 'Refinery pipe rack',
  },
]
