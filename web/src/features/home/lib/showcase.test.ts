import { describe, expect, it } from 'vitest'
import { showcasePrograms } from '@/content/home'
import { programIdFromLocation, resolveProgram } from './showcase'

describe('showcasePrograms', () => {
  it('holds the five programmes of spec 000 §3 with their durations and certifications', () => {
    expect(showcasePrograms.map((p) => [p.id, p.duration, p.certification])).toEqual([
      ['electrical-vr', '2:30', 'OSHA 10-Hour Electrical Safety'],
      ['welding-ar', '3:15', 'AWS D1.1 Structural Steel'],
      ['hvac-mixed', '4:45', 'EPA Section 608 Universal'],
      ['plumbing-vr', '3:00', 'Master Plumber License'],
      ['construction-ar', '2:45', 'Construction Safety Manager'],
    ])
    for (const p of showcasePrograms) {
      expect(p.features).toHaveLength(4)
      expect(['VR', 'AR', 'Mixed Reality']).toContain(p.category)
      expect(p.videoUrl).toMatch(/^\/media\//)
    }
  })
})

describe('resolveProgram', () => {
  it.each([
    ['welding-ar', 'welding-ar'],
    ['construction-ar', 'construction-ar'],
    ['no-such-programme', 'electrical-vr'],
    ['', 'electrical-vr'],
    [null, 'electrical-vr'],
    [undefined, 'electrical-vr'],
    ['WELDING-AR', 'electrical-vr'],
  ])('%s → %s', (id, want) => {
    expect(resolveProgram(id).id).toBe(want)
  })
})

describe('programIdFromLocation', () => {
  it.each([
    ['?program=hvac-mixed', '', 'hvac-mixed'],
    ['', '#video-showcase-plumbing-vr', 'plumbing-vr'],
    ['?program=welding-ar', '#video-showcase-plumbing-vr', 'welding-ar'],
    ['', '#video-showcase', null],
    ['', '#video-showcase-', null],
    ['', '#about', null],
    ['?other=1', '', null],
    ['', '#video-showcase-%E0%A4%A', null],
  ])('search %j hash %j → %j', (search, hash, want) => {
    expect(programIdFromLocation(search, hash)).toBe(want)
  })
})
