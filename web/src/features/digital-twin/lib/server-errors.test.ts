import { describe, expect, it } from 'vitest'
import { ApiError } from '@/lib/api'
import { defaultPoint, newEquipmentValues, type EquipmentFormValues } from './equipment-form'
import { dotPath, placeRequestError, placeServerMessage } from './server-errors'

function values(points = 3): EquipmentFormValues {
  const v = newEquipmentValues()
  return {
    ...v,
    realDevice: true,
    maintenanceSchedule: { intervalDays: '30', tasks: [{ task: 'Check', frequency: 'monthly', trade: 'electrical' }] },
    connection: { ...v.connection, points: ['temperature', 'pressure', 'current'].slice(0, points).map(defaultPoint) },
  }
}

const bad = (message: string, status = 400) => new ApiError(status, JSON.stringify({ message }), 'Bad Request', null)

describe('server messages placed at their field', () => {
  it('reads the server’s path notation', () => {
    expect(dotPath('connection.points[2].register')).toBe('connection.points.2.register')
  })

  it('a point’s field, worded with its label', () => {
    expect(placeServerMessage('connection.points[2].register must be from 0 to 65534', values())).toEqual({
      field: 'connection.points.2.register',
      message: 'Register must be from 0 to 65534.',
    })
    expect(placeServerMessage('connection.address "plc" must be host:port: missing port in address', values())).toEqual({
      field: 'connection.address',
      message: 'Address "plc" must be host:port: missing port in address.',
    })
  })

  it('the twin’s own fields, and a colon after the path', () => {
    expect(placeServerMessage('name is required', values())).toEqual({ field: 'name', message: 'Name is required.' })
    expect(placeServerMessage('maintenanceSchedule.tasks[0].trade: "x" is not a trade', values())).toEqual({ field: 'maintenanceSchedule.tasks.0.trade', message: 'Trade "x" is not a trade.' })
    expect(placeServerMessage('serialNumber must be at most 120 characters', values())).toEqual({ field: 'serialNumber', message: 'Serial number must be at most 120 characters.' })
  })

  it('other paths in the message read as field names', () => {
    expect(placeServerMessage('connection.securityMode must be None exactly when connection.securityPolicy is None', values())).toEqual({
      field: 'connection.securityMode',
      message: 'Security mode must be None exactly when security policy is None.',
    })
  })

  it('lists: the point map and the task list hold theirs in root; one checkbox’s goes to its list', () => {
    expect(placeServerMessage('connection.points must map at least one sensor', values())).toEqual({ field: 'connection.points.root', message: 'Point map must map at least one sensor.' })
    expect(placeServerMessage('supportedTradeTypes[1] "x" is not a trade', values())).toEqual({ field: 'supportedTradeTypes', message: 'Trades "x" is not a trade.' })
    expect(placeServerMessage('writableSensors[0] "rpm" is not a variable of the demo device', values()).field).toBe('writableSensors')
  })

  it('at the top: a row the form does not have, a path it has no field for, or no path', () => {
    expect(placeServerMessage('connection.points[5].register must be from 0 to 65534', values())).toEqual({ field: null, message: 'Connection.points[5].register must be from 0 to 65534.' })
    expect(placeServerMessage('connection must be null for the demo device', values()).field).toBeNull()
    expect(placeServerMessage('equipment "x" is retired', values()).field).toBeNull()
    expect(placeServerMessage('sign in first: this needs an account', values())).toEqual({ field: null, message: 'Sign in first: this needs an account.' })
  })
})

describe('failed requests', () => {
  it('a 400 is placed; other failures are the form’s', () => {
    expect(placeRequestError(bad('connection.timeoutMs must be from 50 to 60000'), values())).toEqual({ field: 'connection.timeoutMs', message: 'Timeout must be from 50 to 60000.' })
    expect(placeRequestError(bad('this needs the role of instructor or admin', 403), values())).toEqual({ field: null, message: 'This needs the role of instructor or admin.' })
    expect(placeRequestError(bad('boom', 500), values()).message).toMatch(/went wrong on our side \(500\)/)
    expect(placeRequestError(new TypeError('Failed to fetch'), values()).message).toMatch(/Could not reach the server/)
  })
})
