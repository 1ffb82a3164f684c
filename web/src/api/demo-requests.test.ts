import { afterEach, describe, expect, it, vi } from 'vitest'
import { createDemoRequest } from '@/api/demo-requests'
import { fakeApi } from '@/test/fake-api'

afterEach(() => {
  vi.unstubAllGlobals()
})

const input = { name: 'Ada', email: 'ada@example.com', organisation: 'Northside', message: '', interest: 'electrical' }

describe('demo requests', () => {
  it("send the form and read the server's stored request", async () => {
    const stored = { id: 'd1', ...input, createdAt: '2026-11-23T22:30:00Z' }
    const fetchMock = fakeApi({ 'POST /api/demo-requests': { status: 201, body: stored } })
    expect(await createDemoRequest(input)).toEqual(stored)
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual(input)
  })

  it('reject with the server message on a refusal', async () => {
    fakeApi({ 'POST /api/demo-requests': { status: 400, body: { message: 'email: must be an address' } } })
    await expect(createDemoRequest(input)).rejects.toThrow('400: {"message":"email: must be an address"}')
  })
})
