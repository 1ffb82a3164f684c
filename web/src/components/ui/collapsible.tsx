import { Collapsible as CollapsiblePrimitive } from 'radix-ui'

/**
 * A disclosure (Radix): the trigger is a button with aria-expanded and
 * aria-controls, and the content is not rendered while closed, so a long
 * collapsed list costs nothing.
 */
export const Collapsible = CollapsiblePrimitive.Root
export const CollapsibleTrigger = CollapsiblePrimitive.Trigger
export const CollapsibleContent = CollapsiblePrimitive.Content
