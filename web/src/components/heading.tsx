import { createContext, createElement, useContext, type HTMLAttributes, type Ref } from 'react'

export type HeadingTag = 'h2' | 'h3' | 'h4' | 'h5' | 'h6'

/**
 * The level of an embeddable feature's top headings: 2 on the feature's own
 * page (under its h1), 3 when /advanced embeds it under a section heading.
 * Every heading inside is placed relative to it, so the outline stays
 * unbroken wherever the feature is shown.
 */
export const HeadingLevelContext = createContext<2 | 3 | 4>(2)

/** The tag of a heading `depth` levels below the feature's top level (capped at h6). */
export function useHeadingTag(depth: 0 | 1 | 2 = 0): HeadingTag {
  return `h${Math.min(6, useContext(HeadingLevelContext) + depth)}` as HeadingTag
}

type Props = HTMLAttributes<HTMLHeadingElement> & { depth?: 0 | 1 | 2; ref?: Ref<HTMLHeadingElement> }

/** A heading `depth` levels below the feature's top level. */
export function Heading({ depth = 0, ...props }: Props) {
  return createElement(useHeadingTag(depth), props)
}

/**
 * The look of a heading that takes focus when its content changes (tabIndex -1, so out of the tab
 * order): an amber outline when the keyboard brought the change, clear of the sticky header when
 * scrolled to.
 */
export const focusedHeadingClass = 'scroll-mt-20 rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-400'
