import { within } from '@testing-library/react'

/** A definition list read as {term: definition}, as the page shows them. */
export function definitionPairs(list: HTMLElement): Record<string, string | undefined> {
  return Object.fromEntries(within(list).getAllByRole('term').map((dt) => [dt.textContent ?? '', dt.nextElementSibling?.textContent ?? undefined]))
}
