import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import { createQueryClient } from '@/lib/api'
import { defaultProfile, parsePersonalizationProfile } from '@/api/personalization'
import {
  AppearanceProvider,
  appearanceFromProfile,
  applyAppearanceToRoot,
  defaultAppearance,
  useAppearance,
  useCaptions,
  useReducedMotion,
  useTimeoutMultiplier,
} from './appearance'

describe('appearanceFromProfile', () => {
  it('maps the wizard defaults to the default appearance', () => {
    expect(appearanceFromProfile({ colorScheme: 'default', fontSize: 'medium', uiComplexity: 'standard', motionSensitivity: 'medium' })).toEqual(defaultAppearance)
  })

  it.each([
    [{ colorScheme: 'high-contrast' }, { colorScheme: 'high-contrast' }],
    [{ colorScheme: 'dark' }, { colorScheme: 'dark' }],
    [{ colorScheme: 'colorblind-friendly' }, { colorScheme: 'colorblind-friendly' }],
    [{ colorScheme: 'neon' }, { colorScheme: 'default' }],
    [{ fontSize: 'large' }, { fontSize: 'large' }],
    [{ fontSize: 'small' }, { fontSize: 'small' }],
    [{ fontSize: 'huge' }, { fontSize: 'medium' }],
    [{ uiComplexity: 'simple' }, { uiComplexity: 'simple' }],
    [{ motionSensitivity: 'high' }, { reducedMotion: true }],
    [{ motionSensitivity: 'low' }, { reducedMotion: false }],
    [{ audioAssistance: ['visual-captions'] }, { captions: true }],
    [{ visualAssistance: ['text-to-speech'] }, { textToSpeech: true }],
    [{ motorAssistance: ['extended-timeouts'] }, { timeoutMultiplier: 3 }],
    [{ motorAssistance: ['reduced-precision'] }, { timeoutMultiplier: 1 }],
    // Assistance options strengthen the display choices but never weaken them.
    [{ colorScheme: 'default', visualAssistance: ['high-contrast'] }, { colorScheme: 'high-contrast' }],
    [{ colorScheme: 'dark', visualAssistance: ['high-contrast'] }, { colorScheme: 'dark' }],
    [{ fontSize: 'small', visualAssistance: ['large-ui'] }, { fontSize: 'large' }],
  ])('%j → %j', (profile, want) => {
    expect(appearanceFromProfile(profile)).toMatchObject(want)
  })
})

describe('applyAppearanceToRoot', () => {
  it('writes the scheme, complexity, motion and one text-size class', () => {
    const root = document.createElement('html')
    root.classList.add('text-size-small')
    applyAppearanceToRoot(root, { ...defaultAppearance, colorScheme: 'high-contrast', fontSize: 'large', uiComplexity: 'simple', reducedMotion: true })
    expect(root.dataset).toMatchObject({ colorScheme: 'high-contrast', uiComplexity: 'simple', reducedMotion: 'true' })
    expect([...root.classList]).toEqual(['text-size-large'])
  })
})

function Probe() {
  const { appearance } = useAppearance()
  return <p>{`${appearance.colorScheme} ${appearance.captions} ${useTimeoutMultiplier()}`}</p>
}

describe('AppearanceProvider', () => {
  afterEach(() => {
    window.localStorage.clear()
  })

  it('loads the saved profile at startup and applies it to <html>', async () => {
    const fetchMock = vi.fn(async () =>
      new Response(JSON.stringify({ colorScheme: 'high-contrast', fontSize: 'large', audioAssistance: ['visual-captions'], motorAssistance: ['extended-timeouts'], saved: true }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      }),
    )
    vi.stubGlobal('fetch', fetchMock)
    render(
      <QueryClientProvider client={createQueryClient()}>
        <AppearanceProvider>
          <Probe />
        </AppearanceProvider>
      </QueryClientProvider>,
    )
    expect(await screen.findByText('high-contrast true 3')).toBeInTheDocument()
    expect(fetchMock).toHaveBeenCalledWith('/api/personalization', { credentials: 'include' })
    await waitFor(() => expect(document.documentElement.dataset.colorScheme).toBe('high-contrast'))
    expect(document.documentElement.classList.contains('text-size-large')).toBe(true)
    expect(JSON.parse(window.localStorage.getItem('journeyman-xr:appearance') ?? '{}')).toMatchObject({ colorScheme: 'high-contrast' })
    vi.unstubAllGlobals()
  })

  it('keeps the defaults when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('down', { status: 503 })))
    render(
      <QueryClientProvider client={createQueryClient()}>
        <AppearanceProvider>
          <Probe />
        </AppearanceProvider>
      </QueryClientProvider>,
    )
    expect(await screen.findByText('default false 1')).toBeInTheDocument()
    vi.unstubAllGlobals()
  })
})

describe('useTimeoutMultiplier', () => {
  it('is 1 outside a provider', () => {
    function Bare() {
      return <p>{useTimeoutMultiplier()}</p>
    }
    render(<Bare />)
    expect(screen.getByText('1')).toBeInTheDocument()
  })
})

describe('useCaptions and useReducedMotion', () => {
  it('read the profile through the provider', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ motionSensitivity: 'high', audioAssistance: ['visual-captions'] }), { status: 200 })),
    )
    function Flags() {
      return <p>{`captions=${useCaptions()} reduced=${useReducedMotion()}`}</p>
    }
    render(
      <QueryClientProvider client={createQueryClient()}>
        <AppearanceProvider>
          <Flags />
        </AppearanceProvider>
      </QueryClientProvider>,
    )
    expect(await screen.findByText('captions=true reduced=true')).toBeInTheDocument()
    vi.unstubAllGlobals()
  })

  it('are off outside a provider', () => {
    function Flags() {
      return <p>{`captions=${useCaptions()} reduced=${useReducedMotion()}`}</p>
    }
    render(<Flags />)
    expect(screen.getByText('captions=false reduced=false')).toBeInTheDocument()
  })
})

describe('parsePersonalizationProfile', () => {
  it('keeps well-typed fields and falls back to the defaults for missing or malformed ones', () => {
    const parsed = parsePersonalizationProfile({
      colorScheme: 'dark',
      fontSize: 3,
      xrComfortLevel: 7,
      safetyEmphasis: Number.NaN,
      visualAssistance: ['high-contrast'],
      audioAssistance: ['visual-captions', 4],
      extra: 'ignored',
    })
    expect(parsed).toEqual({
      ...defaultProfile,
      colorScheme: 'dark',
      xrComfortLevel: 7,
      visualAssistance: ['high-contrast'],
    })
  })

  it('reads anything that is not an object as the defaults', () => {
    expect(parsePersonalizationProfile(null)).toEqual(defaultProfile)
    expect(parsePersonalizationProfile('dark')).toEqual(defaultProfile)
  })
})
