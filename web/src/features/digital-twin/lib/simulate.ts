/** The body of Update Sensors (seed 001 §7): simulated readings and their time. */
export interface SimulatedSensorData {
  temperature: number
  pressure: number
  vibration: number
  current: number
  voltage: number
  rpm: number
  efficiency: number
  timestamp: string
}

type Range = readonly [min: number, max: number]

/** The normal operating band of each reading for one kind of equipment. */
export interface SensorProfile {
  temperature: Range
  pressure: Range
  vibration: Range
  current: Range
  voltage: Range
  rpm: Range
  efficiency: Range
}

// Normal operating bands per kind of equipment, so a simulated update looks
// like that machine on an ordinary day: a panelboard has no shaft (rpm 0) and
// no process pressure, a welder draws hundreds of amps at ~25 V, a pump runs
// near 1,750 rpm. Units: °C, kPa, mm/s RMS, A, V, rpm, %.
const profiles: { match: RegExp; profile: SensorProfile }[] = [
  {
    match: /panel|switchgear|breaker|distribution/i,
    profile: { temperature: [28, 42], pressure: [0, 0], vibration: [0, 0.3], current: [80, 180], voltage: [475, 485], rpm: [0, 0], efficiency: [98, 99.5] },
  },
  {
    match: /transformer/i,
    profile: { temperature: [55, 75], pressure: [95, 105], vibration: [0.2, 1], current: [200, 400], voltage: [475, 485], rpm: [0, 0], efficiency: [97.5, 99] },
  },
  {
    match: /chiller/i,
    profile: { temperature: [6, 8], pressure: [550, 700], vibration: [1.5, 3.5], current: [150, 260], voltage: [455, 465], rpm: [3400, 3600], efficiency: [85, 93] },
  },
  {
    match: /hvac|rooftop|rtu|air.?handl|furnace|heat.?pump/i,
    profile: { temperature: [12, 16], pressure: [900, 1200], vibration: [1, 3], current: [25, 45], voltage: [455, 465], rpm: [1100, 1200], efficiency: [80, 92] },
  },
  {
    match: /pump|booster/i,
    profile: { temperature: [38, 55], pressure: [450, 620], vibration: [1.5, 3.5], current: [30, 55], voltage: [455, 465], rpm: [1740, 1780], efficiency: [72, 84] },
  },
  {
    match: /weld/i,
    profile: { temperature: [35, 60], pressure: [100, 140], vibration: [0.2, 1], current: [140, 220], voltage: [22, 28], rpm: [0, 0], efficiency: [82, 90] },
  },
  {
    match: /inverter|solar|pv/i,
    profile: { temperature: [35, 55], pressure: [0, 0], vibration: [0, 0.3], current: [60, 140], voltage: [470, 490], rpm: [0, 0], efficiency: [96, 98.5] },
  },
  {
    match: /wind|turbine|nacelle/i,
    profile: { temperature: [45, 70], pressure: [180, 240], vibration: [2, 4.5], current: [600, 1100], voltage: [680, 700], rpm: [1400, 1600], efficiency: [88, 94] },
  },
  {
    match: /elevator|lift|hoist|drive|vfd|motor/i,
    profile: { temperature: [35, 55], pressure: [0, 0], vibration: [0.8, 2.5], current: [20, 60], voltage: [455, 465], rpm: [900, 1750], efficiency: [88, 95] },
  },
  {
    match: /compressor/i,
    profile: { temperature: [70, 95], pressure: [650, 850], vibration: [2, 4], current: [60, 110], voltage: [455, 465], rpm: [2900, 3000], efficiency: [80, 90] },
  },
  {
    match: /boiler|water.?heater/i,
    profile: { temperature: [70, 85], pressure: [90, 200], vibration: [0.2, 1], current: [5, 15], voltage: [118, 122], rpm: [0, 0], efficiency: [84, 95] },
  },
]

/** Used when the type matches nothing known: a general 3-phase motor load. */
export const GENERIC_PROFILE: SensorProfile = {
  temperature: [35, 60],
  pressure: [100, 300],
  vibration: [0.5, 2.5],
  current: [20, 60],
  voltage: [455, 465],
  rpm: [1700, 1780],
  efficiency: [85, 94],
}

/** The operating bands for an equipment type (matched on its type and name). */
export function sensorProfile(type: string, name = ''): SensorProfile {
  const text = `${type} ${name}`
  return profiles.find((p) => p.match.test(text))?.profile ?? GENERIC_PROFILE
}

const round = (value: number, digits: number) => {
  const f = 10 ** digits
  return Math.round(value * f) / f
}

function pick([min, max]: Range, random: () => number, digits: number): number {
  return round(min + (max - min) * random(), digits)
}

/**
 * Simulated readings for Update Sensors: every value drawn inside the normal
 * band of the equipment's type. `random` returns [0, 1) and `now` stamps the
 * readings, so tests can fix both.
 */
export function simulateSensorData(type: string, random: () => number = Math.random, now: Date = new Date(), name = ''): SimulatedSensorData {
  const p = sensorProfile(type, name)
  return {
    temperature: pick(p.temperature, random, 1),
    pressure: pick(p.pressure, random, 1),
    vibration: pick(p.vibration, random, 2),
    current: pick(p.current, random, 1),
    voltage: pick(p.voltage, random, 1),
    rpm: pick(p.rpm, random, 0),
    efficiency: pick(p.efficiency, random, 1),
    timestamp: now.toISOString(),
  }
}
