import { describe, expect, it } from 'vitest'
import { cmi5CoursesSchema, packageContentType } from './cmi5'

describe('cmi5 api', () => {
  it('sends a .zip as a zip and anything else as a bare cmi5.xml', () => {
    expect(packageContentType('Course.ZIP')).toBe('application/zip')
    expect(packageContentType('cmi5.xml')).toBe('application/xml')
  })

  it('reads the course list the server answers', () => {
    const parsed = cmi5CoursesSchema.parse({
      courses: [
        {
          id: 'c1',
          courseId: 'https://example.com/course',
          title: 'Weld inspection',
          description: '',
          hasContent: true,
          createdAt: '2026-03-02T09:30:00Z',
          aus: [{ id: 'a1', publisherId: 'https://example.com/au', title: 'Reading a weld', description: '', launchMethod: 'OwnWindow', moveOn: 'Passed', masteryScore: null }],
        },
      ],
    })
    expect(parsed.courses[0].aus[0].launchMethod).toBe('OwnWindow')
    expect(() => cmi5CoursesSchema.parse({ courses: [{ ...parsed.courses[0], aus: [{ ...parsed.courses[0].aus[0], launchMethod: 'Popup' }] }] })).toThrow()
  })
})
