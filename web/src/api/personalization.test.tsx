import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ReactNode } from 'react'
import { renderHook } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import {
  SAVE_FAILED_MESSAGE,
  defaultProfile,
  personalizationKeys,
  personalizationSchema,
  profileOf,
  useSavePersonalization,
} from '@/api/personalization'
import { createQueryClient } from '@/lib/api'
import { fakeApi } from '@/test/fake-api'
import * as answers from '@/test/server-answers'

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the personalization profile', () => {
  it("reads the server's answer whole; the wizard edits the profile without saved, updatedAt and applied", () => {
    const parsed = personalizationSchema.parse(answers.personalization())
    expect(parsed).toEqual(answers.personalization())
    const { saved: _s, updatedAt: _u, applied: _a, ...profile } = answers.personalization()
    expect(profileOf(parsed)).toEqual(profile)
  })

  it('reads a missing or malformed field as the wizard default, and anything but an object as the defaults', () => {
    const parsed = personalizationSchema.parse({ colorScheme: 'dark', xrComfortLevel: 'high', applied: 'yes' })
    expect(profileOf(parsed)).toEqual({ ...defaultProfile, colorScheme: 'dark' })
    expect(parsed.applied).toEqual({ reducedMotion: false, captions: false, extendedTimeouts: false })
    expect(parsed.saved).toBe(false)
    expect(profileOf(personalizationSchema.parse(null))).toEqual(defaultProfile)
  })
})

describe('saving the profile', () => {
  function setup(answer: { status?: number; body?: unknown }) {
    const fetchMock = fakeApi({ 'POST /api/personalization/save': answer })
    const client = createQueryClient()
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>
    return { fetchMock, client, wrapper }
  }

  it('puts the stored profile under the key the app-wide appearance reads', async () => {
    const { client, wrapper, fetchMock } = setup({ body: answers.personalization() })
    const { result } = renderHook(() => useSavePersonalization(), { wrapper })
    await result.current.mutateAsync(profileOf(personalizationSchema.parse(answers.personalization())))
    expect(fetchMock.mock.calls[0][1]).toMatchObject({ method: 'POST', credentials: 'include' })
    expect(client.getQueryData(personalizationKeys.profile)).toEqual(answers.personalization())
  })

  it('throws and logs "Failed to save personalization settings" when the answer is not ok (spec 001 §8)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { wrapper } = setup({ status: 500, body: 'boom' })
    const { result } = renderHook(() => useSavePersonalization(), { wrapper })
    await expect(result.current.mutateAsync(defaultProfile)).rejects.toThrow(`${SAVE_FAILED_MESSAGE}: 500: "boom"`)
    expect(error).toHaveBeenCalledWith(SAVE_FAILED_MESSAGE, expect.any(Error))
  })
})
