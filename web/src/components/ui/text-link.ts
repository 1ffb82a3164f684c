/** The look of a link in running text: amber, bold, underlined on hover, with a visible keyboard focus ring. */
export const textLinkClass = 'font-semibold text-amber-400 underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400'
