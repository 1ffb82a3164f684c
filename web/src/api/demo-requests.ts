import { useMutation } from '@tanstack/react-query'
import { z } from 'zod'
import { apiRequest } from '@/lib/api'

/*
 * Demo requests (internal/outreach):
 *
 *   POST /api/demo-requests {name, email, organisation, message, interest} → 201 DemoRequest
 */

/** A stored demo request, as POST /api/demo-requests answers it. */
export const demoRequestSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  organisation: z.string(),
  message: z.string(),
  interest: z.string(),
  createdAt: z.string(),
})
export type DemoRequest = z.infer<typeof demoRequestSchema>

/** The form's fields, as the server names them. */
export const demoRequestFields = ['name', 'email', 'organisation', 'message', 'interest'] as const
export type DemoRequestField = (typeof demoRequestFields)[number]
export type DemoRequestInput = Record<DemoRequestField, string>

/** Sends a demo request; rejects with the server's "{status}: {body}" error. */
export async function createDemoRequest(input: DemoRequestInput): Promise<DemoRequest> {
  const res = await apiRequest('POST', '/api/demo-requests', input)
  return demoRequestSchema.parse(await res.json())
}

/** The mutation that sends a demo request. */
export function useCreateDemoRequest() {
  return useMutation({ mutationFn: createDemoRequest })
}
