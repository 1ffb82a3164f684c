import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest, apiRequestText } from '@/lib/api'

/** An assignable unit of a cmi5 course, as the catalog lists it. */
export const cmi5AUSchema = z.object({
  id: z.string(),
  publisherId: z.string(),
  title: z.string(),
  description: z.string(),
  launchMethod: z.enum(['AnyWindow', 'OwnWindow']),
  moveOn: z.string(),
  masteryScore: z.number().nullable(),
})
export type Cmi5AU = z.infer<typeof cmi5AUSchema>

export const cmi5CourseSchema = z.object({
  id: z.string(),
  courseId: z.string(),
  title: z.string(),
  description: z.string(),
  hasContent: z.boolean(),
  createdAt: z.string(),
  aus: z.array(cmi5AUSchema),
})
export type Cmi5Course = z.infer<typeof cmi5CourseSchema>

/** GET /api/cmi5/courses: the organisation's courses, newest first. */
export const cmi5CoursesSchema = z.object({ courses: z.array(cmi5CourseSchema) })

/** POST /api/cmi5/aus/{id}/launch: the AU's launch URL with its cmi5 parameters. */
export const cmi5LaunchSchema = z.object({
  url: z.string(),
  launchMethod: z.enum(['AnyWindow', 'OwnWindow']),
  registration: z.string(),
  sessionId: z.string(),
})
export type Cmi5Launch = z.infer<typeof cmi5LaunchSchema>

export const cmi5Keys = { courses: ['/api/cmi5/courses'] as const }

export const cmi5CoursesQueryOptions = () =>
  queryOptions({
    queryKey: cmi5Keys.courses,
    queryFn: async () => cmi5CoursesSchema.parse(await (await apiRequest('GET', '/api/cmi5/courses')).json()),
  })

export function useCmi5Courses(enabled = true) {
  return useQuery({ ...cmi5CoursesQueryOptions(), enabled })
}

/** The content type the server reads a package file as: a zip, or a bare cmi5.xml. */
export function packageContentType(name: string): string {
  return name.toLowerCase().endsWith('.zip') ? 'application/zip' : 'application/xml'
}

/** POST /api/cmi5/courses (staff) → 201 the course. */
export function useImportCmi5Course() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (file: File) => {
      const res = await apiRequestText('POST', '/api/cmi5/courses', file, packageContentType(file.name))
      return cmi5CourseSchema.parse(await res.json())
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cmi5Keys.courses }),
  })
}

/** DELETE /api/cmi5/courses/{id} (staff) → 204. */
export function useDeleteCmi5Course() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', `/api/cmi5/courses/${encodeURIComponent(id)}`)
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cmi5Keys.courses }),
  })
}

/** POST /api/cmi5/aus/{id}/launch (a member of the organisation). */
export function useLaunchCmi5AU() {
  return useMutation({
    mutationFn: async (id: string) =>
      cmi5LaunchSchema.parse(await (await apiRequest('POST', `/api/cmi5/aus/${encodeURIComponent(id)}/launch`)).json()),
  })
}
