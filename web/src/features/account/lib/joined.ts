import { toast } from '@/hooks/use-toast'

/** What a toast says once an invite made someone a member: where, and as what. */
export function joinedMessage(me: { role: string; organisation: { name: string } | null }): { title: string; description: string } | null {
  if (!me.organisation) return null
  return { title: `Welcome to ${me.organisation.name}`, description: `You joined as ${me.role}. Your training records come with you.` }
}

/** Says where an invite made the person a member, as the page changes. */
export function announceJoined(me: { role: string; organisation: { name: string } | null }): void {
  const message = joinedMessage(me)
  if (message) toast(message)
}
