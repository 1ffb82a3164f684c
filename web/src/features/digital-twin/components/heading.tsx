import { createContext, forwardRef, useContext, type HTMLAttributes } from 'react'

/**
 * The level of the monitor's top headings: 2 on /digital-twin (under the
 * page's h1), deeper when another page embeds the monitor under its own
 * section heading. Every heading inside is placed relative to it so the
 * outline stays unbroken wherever the monitor is shown.
 */
export const HeadingLevelContext = createContext(2)

type Props = HTMLAttributes<HTMLHeadingElement> & { depth?: 0 | 1 | 2 }

/** A heading `depth` levels below the monitor's top level (capped at h6). */
export const Heading = forwardRef<HTMLHeadingElement, Props>(function Heading({ depth = 0, ...props }, ref) {
  const level = Math.min(6, useContext(HeadingLevelContext) + depth)
  const Tag = `h${level}` as 'h2' | 'h3' | 'h4' | 'h5' | 'h6'
  return <Tag ref={ref} {...props} />
})
