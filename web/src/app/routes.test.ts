import { describe, expect, it } from 'vitest'
import { matchRoute, normalizePath, notFoundRoute } from '@/app/routes'

describe('matchRoute', () => {
  const known: Array<[string, string]> = [
    ['/', '/'],
    ['/ai-learning-paths', '/ai-learning-paths'],
    ['/digital-twin', '/digital-twin'],
    ['/demo', '/demo'],
    ['/voice-xr', '/voice-xr'],
    ['/personalization', '/personalization'],
    ['/analytics', '/analytics'],
    ['/learning-hub', '/learning-hub'],
    ['/unity-unreal', '/unity-unreal'],
    ['/welding-ar-demo', '/welding-ar-demo'],
    ['/advanced', '/advanced'],
    ['/xr-training', '/xr-training'],
    ['/live-demo', '/live-demo'],
    ['/original', '/original'],
    ['/XR-Training/', '/xr-training'],
    ['/Analytics', '/analytics'],
    ['/learning-hub/', '/learning-hub'],
    ['/industries/electrical', '/industries/:industry'],
    ['/Industries/HVAC/', '/industries/:industry'],
    ['/training/hazard-recognition', '/training/:category'],
    ['/TRAINING/Safety', '/training/:category'],
  ]
  for (const [path, pattern] of known) {
    it(`matches ${path} to ${pattern}`, () => {
      expect(matchRoute(path).route.pattern).toBe(pattern)
    })
  }

  it('passes lower-cased parameters', () => {
    expect(matchRoute('/Industries/HVAC').params).toEqual({ industry: 'hvac' })
    expect(matchRoute('/training/Teamwork/').params).toEqual({ category: 'teamwork' })
  })

  it('gives every industry of the navigation and every training category a page', () => {
    for (const slug of ['electrical', 'plumbing', 'hvac', 'welding', 'construction', 'automotive', 'manufacturing']) {
      expect(matchRoute(`/industries/${slug}`).route).not.toBe(notFoundRoute)
    }
    for (const slug of ['technical', 'onboarding', 'safety', 'teamwork', 'troubleshooting', 'hazard-recognition']) {
      expect(matchRoute(`/training/${slug}`).route).not.toBe(notFoundRoute)
    }
  })

  const unknown = [
    '/nope',
    '/industries/astronomy',
    '/industries',
    '/industries/',
    '/industries/electrical/extra',
    '/training/cooking',
    '/training',
    '/xr-training//',
    '/demo/1',
    '/original-page',
    '/%E0%A4%A',
  ]
  for (const path of unknown) {
    it(`shows the 404 page for ${path}`, () => {
      expect(matchRoute(path).route).toBe(notFoundRoute)
      expect(matchRoute(path).route.title({})).toBe('404 Page Not Found')
    })
  }
})

describe('normalizePath', () => {
  it('lower-cases, drops one trailing slash and ignores query and hash', () => {
    expect(normalizePath('/XR-Training/')).toBe('/xr-training')
    expect(normalizePath('/')).toBe('/')
    expect(normalizePath('/demo?x=1#top')).toBe('/demo')
  })
})

describe('training category titles', () => {
  it.each([
    ['/training/safety', 'Safety Training'],
    ['/training/teamwork', 'Teamwork Training'],
  ])('%s is titled %s', (path, title) => {
    const { route, params } = matchRoute(path)
    expect(route.title(params)).toBe(title)
  })
})
