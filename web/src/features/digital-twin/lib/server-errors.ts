import { ApiError } from '@/lib/api'
import { formErrors } from '@/lib/form-errors'
import type { EquipmentFormValues } from './equipment-form'

/*
 * A 400 from the twin API names its field at the start, in the server's
 * notation: "connection.points[2].register must be from 0 to 65534",
 * "name is required". The form shows such a message under that field,
 * worded with the field's label ("Register must be from 0 to 65534."), and
 * anything it cannot place at the top.
 */

/** Each path segment's label, as the form shows it. */
const labels: Record<string, string> = {
  name: 'Name',
  manufacturer: 'Manufacturer',
  model: 'Model',
  serialNumber: 'Serial number',
  type: 'Type',
  supportedTradeTypes: 'Trades',
  communicationProtocol: 'Communication protocol',
  maintenanceSchedule: 'Maintenance schedule',
  intervalDays: 'Interval',
  tasks: 'Tasks',
  task: 'Task',
  frequency: 'Frequency',
  trade: 'Trade',
  connection: 'Connection',
  address: 'Address',
  unitId: 'Unit id',
  securityPolicy: 'Security policy',
  securityMode: 'Security mode',
  username: 'Username',
  password: 'Password',
  cipPath: 'CIP path',
  topic: 'Topic',
  intervalMs: 'Interval',
  timeoutMs: 'Timeout',
  points: 'Point map',
  sensor: 'Sensor',
  register: 'Register',
  registerType: 'Table',
  dataType: 'Data type',
  wordOrder: 'Word order',
  nodeId: 'Node id',
  tag: 'Tag',
  field: 'Field',
  scale: 'Scale',
  offset: 'Offset',
  writableSensors: 'Writable sensors',
}

/**
 * The fields a message can be placed at, with # for a row's index. A list
 * of rows (points, tasks) holds its own message in `root`, as
 * react-hook-form keeps a field array's; a list of checkboxes holds it
 * itself.
 */
const placeable = new Set([
  'name',
  'manufacturer',
  'model',
  'serialNumber',
  'type',
  'supportedTradeTypes',
  'communicationProtocol',
  'writableSensors',
  'maintenanceSchedule.intervalDays',
  'maintenanceSchedule.tasks',
  ...['task', 'frequency', 'trade'].map((f) => `maintenanceSchedule.tasks.#.${f}`),
  ...['address', 'unitId', 'securityPolicy', 'securityMode', 'username', 'password', 'cipPath', 'topic', 'intervalMs', 'timeoutMs', 'points'].map((f) => `connection.${f}`),
  ...['sensor', 'register', 'registerType', 'dataType', 'wordOrder', 'nodeId', 'tag', 'field', 'scale', 'offset'].map((f) => `connection.points.#.${f}`),
])
const fieldArrays = new Set(['maintenanceSchedule.tasks', 'connection.points'])

/** A field path at the start of a message ("connection.points[2].register"), then the rest after a space or a colon. */
const leadingPath = /^([A-Za-z][A-Za-z0-9]*(?:\[\d+\]|\.[A-Za-z][A-Za-z0-9]*)*)(?::\s*|\s+)([\s\S]+)$/
/** A dotted path anywhere in a message ("… when connection.securityPolicy is None"). */
const innerPath = /\b(?:connection|maintenanceSchedule)(?:\[\d+\]|\.[A-Za-z][A-Za-z0-9]*)+/g

/** 'connection.points[2].register' → 'connection.points.2.register'. */
export function dotPath(serverPath: string): string {
  return serverPath.replace(/\[(\d+)\]/g, '.$1')
}

function labelOf(path: string): string {
  const named = path.split('.').filter((s) => !/^\d+$/.test(s))
  return labels[named[named.length - 1]] ?? path
}

function sentence(s: string): string {
  const t = s.trim()
  const c = t.charAt(0).toUpperCase() + t.slice(1)
  return /[.!?]$/.test(c) ? c : `${c}.`
}

/** Whether values has the row a path's index names (a message about row 5 of 3 has nowhere to go). */
function rowExists(path: string, values: EquipmentFormValues): boolean {
  let cur: unknown = values
  for (const seg of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return false
    cur = (cur as Record<string, unknown>)[seg]
    if (cur === undefined) return false
  }
  return true
}

/** A message placed: the react-hook-form field it belongs to (null: the top of the form) and the sentence shown. */
export interface PlacedMessage {
  field: string | null
  message: string
}

/**
 * Where a 400's message goes. The path at its start is replaced by the
 * field's label, and any other path in it by the field's name in lower
 * case ("Security mode must be None exactly when security policy is
 * None."); a message whose path the form has no field for is shown whole at
 * the top.
 */
export function placeServerMessage(message: string, values: EquipmentFormValues): PlacedMessage {
  const m = leadingPath.exec(message.trim())
  if (m) {
    let path = dotPath(m[1])
    let template = path.replace(/\.\d+(?=\.|$)/g, '.#')
    // A message about one checkbox of a list ("supportedTradeTypes[1] …") or one whole row goes to the list.
    while (template.endsWith('.#')) {
      template = template.slice(0, -2)
      path = path.slice(0, path.lastIndexOf('.'))
    }
    if (placeable.has(template) && rowExists(path, values)) {
      const rest = m[2].replace(innerPath, (p) => labelOf(dotPath(p)).toLowerCase())
      return { field: fieldArrays.has(template) ? `${path}.root` : path, message: sentence(`${labelOf(path)} ${rest}`) }
    }
  }
  return { field: null, message: sentence(message) }
}

/**
 * What a failed save or test means for the form: a 400's message at its
 * field (or the top), anything else at the top in the app's usual words
 * (a throttle, a server failure, no network, a refusal).
 */
export function placeRequestError(error: unknown, values: EquipmentFormValues): PlacedMessage {
  if (error instanceof ApiError && error.status === 400 && error.serverMessage) return placeServerMessage(error.serverMessage, values)
  return { field: null, message: formErrors(error, {}).form ?? 'The request failed.' }
}
