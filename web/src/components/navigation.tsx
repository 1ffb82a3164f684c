import { useCallback, useEffect, useId, useRef, useState, type MouseEvent, type ReactNode } from 'react'
import { Link, useLocation } from 'wouter'
import { ChevronDown, Menu, X } from 'lucide-react'
import { FocusScope } from 'radix-ui/internal'
import { industries, productName, trainingNav } from '@/content/navigation'
import { Badge } from '@/components/ui/badge'
import { buttonVariants } from '@/components/ui/button'
import { AccountNavDesktop, AccountNavMobile } from '@/components/account-nav'
import { BrandMark } from '@/components/brand-mark'
import { scrollToId } from '@/lib/scroll'
import { cn } from '@/lib/utils'

/** Below this width the hamburger panel replaces the desktop links (spec 000 §9). */
export const MOBILE_BREAKPOINT_PX = 768
/** A hover must last this long before a dropdown opens, so a quick pass of the mouse does not flash it. */
const HOVER_OPEN_DELAY_MS = 100
/** A click this soon after a hover opened the dropdown confirms it instead of closing it. */
const HOVER_CLICK_GRACE_MS = 500

type MenuName = 'training' | 'industries'

/** The open menu after `name` asks to open or close: closing leaves another menu alone. */
const menuAfter = (name: MenuName, open: boolean) => (current: MenuName | null) =>
  open ? name : current === name ? null : current

const linkClass =
  'rounded-md px-3 py-2 text-sm font-medium text-slate-200 transition-colors hover:bg-white/10 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400'

/** Goes to the home page's #about section, from any page. */
function useAboutLink() {
  const [location, navigate] = useLocation()
  return useCallback(
    (event: MouseEvent<HTMLAnchorElement>) => {
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
      event.preventDefault()
      if (location !== '/') navigate('/#about')
      else window.history.replaceState(window.history.state, '', '/#about')
      scrollToId('about')
    },
    [location, navigate],
  )
}

interface DropdownProps {
  name: MenuName
  label: string
  open: boolean
  onOpenChange: (open: boolean) => void
  children: ReactNode
  tourId?: string
}

/** A desktop dropdown: opens on hover, toggles on click, closes on an outside click, Escape or a choice. */
function NavDropdown({ name, label, open, onOpenChange, children, tourId }: DropdownProps) {
  const panelId = useId()
  const itemRef = useRef<HTMLLIElement>(null)
  const triggerRef = useRef<HTMLButtonElement>(null)
  const hoverTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const hoverOpenedAt = useRef(0)

  const clearHover = () => {
    if (hoverTimer.current) clearTimeout(hoverTimer.current)
    hoverTimer.current = null
  }
  useEffect(() => clearHover, [])

  useEffect(() => {
    if (!open) return
    const onPointerDown = (event: PointerEvent) => {
      if (!itemRef.current?.contains(event.target as Node)) onOpenChange(false)
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        onOpenChange(false)
        triggerRef.current?.focus()
      }
    }
    document.addEventListener('pointerdown', onPointerDown)
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('pointerdown', onPointerDown)
      document.removeEventListener('keydown', onKeyDown)
    }
  }, [open, onOpenChange])

  return (
    <li
      ref={itemRef}
      className="relative"
      data-menu={name}
      onPointerEnter={(event) => {
        // Touch has no hover; a tap is a click.
        if (event.pointerType !== 'mouse' || open) return
        clearHover()
        hoverTimer.current = setTimeout(() => {
          hoverOpenedAt.current = performance.now()
          onOpenChange(true)
        }, HOVER_OPEN_DELAY_MS)
      }}
      onPointerLeave={clearHover}
      onBlur={(event) => {
        // Keyboard users tabbing past the panel close it.
        if (event.relatedTarget && !itemRef.current?.contains(event.relatedTarget as Node)) onOpenChange(false)
      }}
    >
      <button
        ref={triggerRef}
        type="button"
        className={cn(linkClass, 'inline-flex items-center gap-1', open && 'bg-white/10 text-white')}
        aria-expanded={open}
        aria-controls={panelId}
        data-tour={tourId}
        onClick={() => {
          clearHover()
          const justHovered = open && performance.now() - hoverOpenedAt.current < HOVER_CLICK_GRACE_MS
          hoverOpenedAt.current = 0
          if (!justHovered) onOpenChange(!open)
        }}
      >
        {label}
        <ChevronDown className={cn('h-4 w-4 transition-transform', open && 'rotate-180')} aria-hidden="true" />
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="absolute left-0 top-full z-50 mt-2 w-80 rounded-xl border border-white/10 bg-slate-900/95 p-2 shadow-2xl backdrop-blur"
      >
        <ul className="grid gap-1" aria-label={label}>
          {children}
        </ul>
      </div>
    </li>
  )
}

/** Radix's focus scope moves focus when it mounts and unmounts; the menu's stays mounted and only traps while open. */
const keepFocus = (event: Event) => event.preventDefault()

/** The site's navigation bar: desktop links and dropdowns, and the mobile hamburger panel (spec 000 §2). */
export function Navigation() {
  const [openMenu, setOpenMenu] = useState<MenuName | null>(null)
  const [mobileOpen, setMobileOpen] = useState(false)
  const [mobileGroups, setMobileGroups] = useState<Record<MenuName, boolean>>({ training: false, industries: false })
  const [location] = useLocation()
  const onAbout = useAboutLink()
  const hamburgerRef = useRef<HTMLButtonElement>(null)
  const headerRef = useRef<HTMLElement>(null)
  const mobilePanelRef = useRef<HTMLDivElement>(null)
  /** Where the panel was when a choice in it closed it. */
  const choiceMadeAt = useRef<string | null>(null)
  const mobilePanelId = useId()
  const trainingGroupId = useId()
  const industriesGroupId = useId()

  // Any navigation closes every menu, in the render that sees the new location.
  const [shownLocation, setShownLocation] = useState(location)
  if (shownLocation !== location) {
    setShownLocation(location)
    setOpenMenu(null)
    setMobileOpen(false)
  }

  // The open mobile panel locks page scrolling.
  useEffect(() => {
    if (!mobileOpen) return
    const previous = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    return () => {
      document.body.style.overflow = previous
    }
  }, [mobileOpen])

  // At 768 px and wider the mobile panel closes.
  useEffect(() => {
    const query = window.matchMedia(`(min-width: ${MOBILE_BREAKPOINT_PX}px)`)
    const onChange = () => {
      if (query.matches) setMobileOpen(false)
      else setOpenMenu(null)
    }
    query.addEventListener('change', onChange)
    return () => query.removeEventListener('change', onChange)
  }, [])

  // The open panel covers the page: what is behind it is out of reach of a screen reader's reading too, not only of Tab.
  useEffect(() => {
    const header = headerRef.current
    if (!mobileOpen || !header?.parentElement) return
    const behind = [...header.parentElement.children].filter((el): el is HTMLElement => el !== header && el instanceof HTMLElement && !el.inert)
    for (const el of behind) el.inert = true
    return () => {
      for (const el of behind) el.inert = false
    }
  }, [mobileOpen])

  // A choice in the panel that shows no new screen (the page already shown, Sign out) would leave focus on the
  // link that just vanished: it returns to the menu button. A new screen takes focus itself (hooks/use-route-focus.ts).
  useEffect(() => {
    if (mobileOpen || choiceMadeAt.current === null) return
    const stayed = choiceMadeAt.current === location
    choiceMadeAt.current = null
    const active = document.activeElement
    if (stayed && (!active || active === document.body || mobilePanelRef.current?.contains(active))) hamburgerRef.current?.focus()
  }, [mobileOpen, location])

  useEffect(() => {
    if (!mobileOpen) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setMobileOpen(false)
        hamburgerRef.current?.focus()
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [mobileOpen])

  const setTraining = useCallback((open: boolean) => setOpenMenu(menuAfter('training', open)), [])
  const setIndustries = useCallback((open: boolean) => setOpenMenu(menuAfter('industries', open)), [])

  const toggleGroup = (name: MenuName) => setMobileGroups((g) => ({ ...g, [name]: !g[name] }))
  const chosen = () => {
    choiceMadeAt.current = location
    setMobileOpen(false)
  }

  return (
    <header ref={headerRef} className="sticky top-0 z-50 border-b border-white/10 print:hidden">
      {/* The blur sits on a layer of its own: a backdrop-filter on the header would make it the containing
          block of the fixed mobile panel, which then collapsed to the header's height. */}
      <div className="absolute inset-0 -z-10 bg-slate-950/90 backdrop-blur supports-[backdrop-filter]:bg-slate-950/75" aria-hidden="true" />
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-2 px-4 sm:px-6 lg:px-8">
        <Link href="/" className="flex items-center gap-2 rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400" aria-label={`${productName} home`}>
          <BrandMark className="h-8 w-8" />
          <span className="text-lg font-bold tracking-tight text-white">{productName}</span>
        </Link>

        <ul className="hidden items-center gap-0.5 md:flex">
          <li>
            <Link href="/" className={linkClass}>
              Home
            </Link>
          </li>
          <li>
            <a href="/#about" className={linkClass} onClick={onAbout}>
              About
            </a>
          </li>
          <NavDropdown name="training" label="Training" open={openMenu === 'training'} onOpenChange={setTraining} tourId="nav-training">
            {trainingNav.map((entry) => (
              <li key={entry.href + entry.label}>
                <Link
                  href={entry.href}
                  onClick={() => setOpenMenu(null)}
                  className="block rounded-lg px-3 py-2 hover:bg-white/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
                >
                  <span className="block text-sm font-semibold text-white">{entry.label}</span>
                  <span className="block text-xs text-slate-300">{entry.description}</span>
                </Link>
              </li>
            ))}
          </NavDropdown>
          <NavDropdown name="industries" label="Industries" open={openMenu === 'industries'} onOpenChange={setIndustries} tourId="nav-industries">
            {industries.map((industry) => (
              <li key={industry.slug}>
                <Link
                  href={`/industries/${industry.slug}`}
                  onClick={() => setOpenMenu(null)}
                  className="block rounded-lg px-3 py-2 text-sm font-medium text-white hover:bg-white/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400"
                >
                  {industry.label}
                </Link>
              </li>
            ))}
          </NavDropdown>
          <li>
            <Link href="/analytics" className={linkClass} data-tour="nav-analytics">
              Analytics
            </Link>
          </li>
          <li>
            <Link href="/learning-hub" className={cn(linkClass, 'inline-flex items-center gap-1.5')} data-tour="nav-learning-hub">
              Learning Hub
              <Badge variant="secondary">Resources</Badge>
            </Link>
          </li>
        </ul>

        <div className="flex items-center gap-2">
          <Link href="/demo" className={cn(buttonVariants({ size: 'sm' }), 'hidden md:inline-flex')} data-tour="nav-demo">
            <span className="lg:hidden">Demo</span>
            <span className="hidden lg:inline">View Demo</span>
          </Link>
          <AccountNavDesktop />
          {/* While the panel is open, Tab and Shift+Tab go round the menu button and the panel, never to the page behind it. */}
          <FocusScope.Root asChild loop={mobileOpen} trapped={mobileOpen} onMountAutoFocus={keepFocus} onUnmountAutoFocus={keepFocus}>
            <div className="flex outline-none md:hidden">
              <button
                ref={hamburgerRef}
                type="button"
                className="inline-flex h-10 w-10 items-center justify-center rounded-md text-white hover:bg-white/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 md:hidden"
                aria-label="Menu"
                aria-expanded={mobileOpen}
                aria-controls={mobilePanelId}
                onClick={() => setMobileOpen((open) => !open)}
              >
                {mobileOpen ? <X className="h-6 w-6" aria-hidden="true" /> : <Menu className="h-6 w-6" aria-hidden="true" />}
              </button>
              <div
                ref={mobilePanelRef}
                id={mobilePanelId}
                hidden={!mobileOpen}
                data-testid="mobile-menu"
                className="fixed inset-x-0 bottom-0 top-16 overflow-y-auto overscroll-contain border-t border-white/10 bg-slate-950 px-4 pb-8 pt-2 md:hidden"
              >
                <AccountNavMobile onNavigate={chosen} />
                <ul className="mt-2 grid gap-1" aria-label="Mobile">
                  <li>
                    <Link href="/" className={cn(linkClass, 'block text-base')} onClick={chosen}>
                      Home
                    </Link>
                  </li>
                  <li>
                    <a
                      href="/#about"
                      className={cn(linkClass, 'block text-base')}
                      onClick={(event) => {
                        chosen()
                        onAbout(event)
                      }}
                    >
                      About
                    </a>
                  </li>
                  <li>
                    <button
                      type="button"
                      className={cn(linkClass, 'flex w-full items-center justify-between text-base')}
                      aria-expanded={mobileGroups.training}
                      aria-controls={trainingGroupId}
                      onClick={() => toggleGroup('training')}
                    >
                      Training
                      <ChevronDown className={cn('h-5 w-5 transition-transform', mobileGroups.training && 'rotate-180')} aria-hidden="true" />
                    </button>
                    <ul id={trainingGroupId} hidden={!mobileGroups.training} className="ml-3 grid gap-1 border-l border-white/10 pl-3" aria-label="Training">
                      {trainingNav.map((entry) => (
                        <li key={entry.href + entry.label}>
                          <Link href={entry.href} className="block rounded-md px-3 py-2 hover:bg-white/10" onClick={chosen}>
                            <span className="block text-sm font-semibold text-white">{entry.label}</span>
                            <span className="block text-xs text-slate-300">{entry.description}</span>
                          </Link>
                        </li>
                      ))}
                    </ul>
                  </li>
                  <li>
                    <button
                      type="button"
                      className={cn(linkClass, 'flex w-full items-center justify-between text-base')}
                      aria-expanded={mobileGroups.industries}
                      aria-controls={industriesGroupId}
                      onClick={() => toggleGroup('industries')}
                    >
                      Industries
                      <ChevronDown className={cn('h-5 w-5 transition-transform', mobileGroups.industries && 'rotate-180')} aria-hidden="true" />
                    </button>
                    <ul id={industriesGroupId} hidden={!mobileGroups.industries} className="ml-3 grid gap-1 border-l border-white/10 pl-3" aria-label="Industries">
                      {industries.map((industry) => (
                        <li key={industry.slug}>
                          <Link
                            href={`/industries/${industry.slug}`}
                            className="block rounded-md px-3 py-2 text-sm font-medium text-white hover:bg-white/10"
                            onClick={chosen}
                          >
                            {industry.label}
                          </Link>
                        </li>
                      ))}
                    </ul>
                  </li>
                  <li>
                    <Link href="/analytics" className={cn(linkClass, 'block text-base')} onClick={chosen}>
                      Analytics
                    </Link>
                  </li>
                  <li>
                    <Link href="/learning-hub" className={cn(linkClass, 'flex items-center gap-2 text-base')} onClick={chosen}>
                      Learning Hub
                      <Badge variant="secondary">Resources</Badge>
                    </Link>
                  </li>
                  <li className="pt-2">
                    <Link href="/demo" className={cn(buttonVariants(), 'w-full')} onClick={chosen}>
                      View Demo
                    </Link>
                  </li>
                </ul>
              </div>
            </div>
          </FocusScope.Root>
        </div>
      </nav>
    </header>
  )
}
