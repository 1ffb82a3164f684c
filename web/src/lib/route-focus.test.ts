// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { HEADING_WAIT_MS, MAIN_ID, ROUTE_FOCUS_ATTRIBUTE, focusNewScreen } from './route-focus'

let nav: HTMLElement
let main: HTMLElement
let navLink: HTMLAnchorElement

/** Lets the MutationObserver's callbacks run. */
const mutationsSeen = () => new Promise((resolve) => setTimeout(resolve, 0))

function add<K extends keyof HTMLElementTagNameMap>(parent: HTMLElement, tag: K, text = '', attributes: Record<string, string> = {}) {
  const element = document.createElement(tag)
  element.textContent = text
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value)
  parent.append(element)
  return element
}

beforeEach(() => {
  nav = add(document.body, 'nav')
  navLink = add(nav, 'a', 'Analytics', { href: '/analytics' })
  main = add(document.body, 'main', '', { id: MAIN_ID, tabindex: '-1' })
})

afterEach(() => {
  document.body.replaceChildren()
  vi.useRealTimers()
})

describe('focusNewScreen', () => {
  it('moves focus from the link followed to the new screen’s h1, without scrolling and without a focus ring', () => {
    const heading = add(main, 'h1', 'Analytics Dashboard')
    navLink.focus()
    const focus = vi.spyOn(heading, 'focus')
    focusNewScreen(navLink, '')
    expect(document.activeElement).toBe(heading)
    expect(focus).toHaveBeenCalledWith({ preventScroll: true })
    expect(heading.getAttribute('tabindex')).toBe('-1')
    expect(heading.hasAttribute(ROUTE_FOCUS_ATTRIBUTE)).toBe(true)
    // Once focus moves on, the heading is an ordinary heading again (it stays focusable by script).
    navLink.focus()
    expect(heading.hasAttribute(ROUTE_FOCUS_ATTRIBUTE)).toBe(false)
  })

  it('focuses the first h1 inside the main landmark, not one elsewhere', () => {
    add(nav, 'h1', 'Not this one')
    add(main, 'h2', 'Nor this')
    const heading = add(main, 'h1', 'Learning Hub')
    focusNewScreen(null, '')
    expect(document.activeElement).toBe(heading)
  })

  it('skips the previous screen, kept hidden while the next one loads', async () => {
    // React keeps a suspended boundary's old content mounted, hidden with display: none, under the fallback.
    const old = add(main, 'div', '', { style: 'display: none !important;' })
    add(old, 'h1', 'Home')
    add(main, 'p', 'Loading page…', { role: 'status' })
    focusNewScreen(navLink, '')
    expect(document.activeElement).toBe(main)
    old.remove()
    const heading = add(main, 'h1', 'Analytics Dashboard')
    await mutationsSeen()
    expect(document.activeElement).toBe(heading)
  })

  it('keeps a heading’s own tabindex', () => {
    const heading = add(main, 'h1', 'Title', { tabindex: '0' })
    focusNewScreen(null, '')
    expect(document.activeElement).toBe(heading)
    expect(heading.getAttribute('tabindex')).toBe('0')
  })

  it('moves focus from <body>, as when the link followed was in the page that went away', () => {
    const heading = add(main, 'h1', 'Title')
    expect(document.activeElement).toBe(document.body)
    focusNewScreen(null, '')
    expect(document.activeElement).toBe(heading)
  })

  it('moves focus from a link the screen kept, inside main', () => {
    const heading = add(main, 'h1', 'Plumbing Training')
    const other = add(main, 'a', 'HVAC', { href: '/industries/hvac' })
    other.focus()
    focusNewScreen(other, '')
    expect(document.activeElement).toBe(heading)
  })

  it('leaves focus where the new screen put it inside main', () => {
    add(main, 'h1', 'Sign in')
    const field = add(main, 'input')
    field.focus()
    focusNewScreen(navLink, '')
    expect(document.activeElement).toBe(field)
  })

  it('while the screen loads, waits on main, then moves to the heading once it renders', async () => {
    navLink.focus()
    const stop = focusNewScreen(navLink, '')
    expect(document.activeElement).toBe(main)
    add(main, 'p', 'Loading…')
    await mutationsSeen()
    expect(document.activeElement).toBe(main)
    const heading = add(main, 'h1', 'Analytics Dashboard')
    await mutationsSeen()
    expect(document.activeElement).toBe(heading)
    stop()
  })

  it('does not take focus back from a field the loaded screen focused', async () => {
    focusNewScreen(navLink, '')
    expect(document.activeElement).toBe(main)
    const field = add(main, 'input')
    field.focus()
    add(main, 'h1', 'Late heading')
    await mutationsSeen()
    expect(document.activeElement).toBe(field)
  })

  it('stops waiting once the person presses a key', async () => {
    focusNewScreen(navLink, '')
    expect(document.activeElement).toBe(main)
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' }))
    navLink.focus() // Shift+Tab back into the navigation
    add(main, 'h1', 'Late heading')
    await mutationsSeen()
    expect(document.activeElement).toBe(navLink)
  })

  it(`gives up on a heading after ${HEADING_WAIT_MS} ms, leaving focus on main`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    focusNewScreen(navLink, '')
    vi.advanceTimersByTime(HEADING_WAIT_MS + 1)
    vi.useRealTimers()
    add(main, 'h1', 'Much too late')
    await mutationsSeen()
    expect(document.activeElement).toBe(main)
  })

  it('with an #anchor, focuses the element it names rather than the heading', async () => {
    const heading = add(main, 'h1', 'Home')
    navLink.focus()
    focusNewScreen(navLink, '#about')
    // The section is not there yet: the heading holds focus meanwhile.
    expect(document.activeElement).toBe(heading)
    const section = add(main, 'section', 'About us', { id: 'about' })
    await mutationsSeen()
    expect(document.activeElement).toBe(section)
    expect(section.getAttribute('tabindex')).toBe('-1')
  })

  it('does nothing without a main landmark', () => {
    main.remove()
    navLink.focus()
    focusNewScreen(navLink, '')
    expect(document.activeElement).toBe(navLink)
  })
})
