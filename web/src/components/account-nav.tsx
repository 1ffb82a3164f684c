import { useEffect, useRef } from 'react'
import { Link, useLocation, useSearch } from 'wouter'
import { BookOpen, Building2, ChevronDown, GraduationCap, LogOut, Radio, UserRound } from 'lucide-react'
import { canManageOrganisation, roleLabels, useMe, useSignOut, type Me } from '@/api/account'
import { buttonVariants } from '@/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import { useLeaveAccountPage } from '@/hooks/use-require-account'
import { toast } from '@/hooks/use-toast'
import { signInPath, signUpPath } from '@/lib/next-path'
import { cn } from '@/lib/utils'

/** The page to come back to after signing in from the navigation: this one. */
function useHere(): string {
  const [location] = useLocation()
  const search = useSearch()
  return location + (search ? `?${search}` : '')
}

/** Signs out and says so, leaving a page that needs an account for the home page. */
function useSignOutAction() {
  const signOut = useSignOut(useLeaveAccountPage())
  return {
    pending: signOut.isPending,
    run: () =>
      signOut.mutateAsync().then(
        () => toast({ title: 'Signed out', description: 'You are browsing as a guest.' }),
        () => toast({ title: 'Could not sign out', description: 'Check your connection and try again.', variant: 'destructive' }),
      ),
  }
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean)
  return ((parts[0]?.[0] ?? '?') + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase()
}

function Avatar({ me }: { me: Me }) {
  return (
    <span className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-amber-500 text-xs font-bold text-slate-950" aria-hidden="true">
      {initials(me.displayName)}
    </span>
  )
}

const guestLinkClass =
  'rounded-md px-3 py-2 text-sm font-medium text-slate-200 transition-colors hover:bg-white/10 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400'

/** The desktop bar's account area: the signed-in name and role with a menu, or Sign in / Sign up for a guest. */
export function AccountNavDesktop() {
  const me = useMe()
  const here = useHere()
  const signOut = useSignOutAction()
  const guest = !me.data || me.data.guest
  // Signing out removes the menu that had focus, leaving it on the page's body: it goes on to
  // Sign in, in the menu's place. A page left for home has already put it somewhere.
  const signedOut = useRef(false)
  const signIn = useRef<HTMLAnchorElement>(null)
  useEffect(() => {
    if (!guest || me.isPending || !signedOut.current) return
    signedOut.current = false
    if (document.activeElement === document.body || !document.activeElement) signIn.current?.focus()
  }, [guest, me.isPending])

  // Holds the place while the identity loads, so the bar does not shift when it arrives.
  if (me.isPending) return <span className="hidden h-9 w-36 md:block" aria-hidden="true" />
  if (guest) {
    return (
      <div className="hidden items-center gap-1 md:flex" data-testid="account-nav">
        <Link ref={signIn} href={signInPath(here)} className={guestLinkClass}>
          Sign in
        </Link>
        <Link href={signUpPath(here)} className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'hidden lg:inline-flex')}>
          Sign up
        </Link>
      </div>
    )
  }
  const account = me.data
  return (
    <div className="hidden md:block" data-testid="account-nav">
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger
          className="flex max-w-[14rem] items-center gap-2 rounded-md px-2 py-1.5 text-left text-white hover:bg-white/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400 data-[state=open]:bg-white/10"
          data-testid="account-menu-trigger"
        >
          <Avatar me={account} />
          <span className="sr-only">Account menu:</span>{' '}
          {/* Read out at every width, shown from lg up where the bar has room for it. */}
          <span className="sr-only leading-tight lg:not-sr-only lg:flex lg:min-w-0 lg:flex-col">
            <span className="truncate text-sm font-semibold">{account.displayName}</span>{' '}
            <span className="text-xs text-slate-300">{roleLabels[account.role]}</span>
          </span>
          <ChevronDown className="h-4 w-4 shrink-0 text-slate-300" aria-hidden="true" />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuLabel>
            <span className="block text-sm font-semibold text-white">{account.displayName}</span>
            <span className="block">{account.email}</span>
            <span className="block">
              {roleLabels[account.role]}
              {account.organisation ? ` · ${account.organisation.name}` : ''}
            </span>
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem asChild>
            <Link href="/account">
              <UserRound aria-hidden="true" />
              Account
            </Link>
          </DropdownMenuItem>
          {account.organisation && (
            <DropdownMenuItem asChild>
              <Link href="/cmi5">
                <BookOpen aria-hidden="true" />
                Courses
              </Link>
            </DropdownMenuItem>
          )}
          {canManageOrganisation(account) && (
            <>
              <DropdownMenuItem asChild>
                <Link href="/portal">
                  <GraduationCap aria-hidden="true" />
                  Portal
                </Link>
              </DropdownMenuItem>
              <DropdownMenuItem asChild>
                <Link href="/portal/live">
                  <Radio aria-hidden="true" />
                  Live view
                </Link>
              </DropdownMenuItem>
              <DropdownMenuItem asChild>
                <Link href="/organisation">
                  <Building2 aria-hidden="true" />
                  Organisation
                </Link>
              </DropdownMenuItem>
            </>
          )}
          <DropdownMenuSeparator />
          <DropdownMenuItem
            disabled={signOut.pending}
            onSelect={() => {
              signedOut.current = true
              void signOut.run()
            }}
          >
            <LogOut aria-hidden="true" />
            Sign out
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  )
}

const mobileLinkClass =
  'block rounded-md px-3 py-2 text-base font-medium text-slate-200 transition-colors hover:bg-white/10 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-400'

/** The mobile panel's account section; onNavigate closes the panel. */
export function AccountNavMobile({ onNavigate }: { onNavigate: () => void }) {
  const me = useMe()
  const here = useHere()
  const signOut = useSignOutAction()

  if (me.isPending) return null
  if (!me.data || me.data.guest) {
    return (
      <div className="grid grid-cols-2 gap-2 border-b border-white/10 pb-3" data-testid="account-nav-mobile">
        <Link href={signInPath(here)} className={cn(buttonVariants({ variant: 'outline' }), 'w-full')} onClick={onNavigate}>
          Sign in
        </Link>
        <Link href={signUpPath(here)} className={cn(buttonVariants({ variant: 'secondary' }), 'w-full')} onClick={onNavigate}>
          Sign up
        </Link>
      </div>
    )
  }
  const account = me.data
  return (
    <section className="border-b border-white/10 pb-3" aria-label="Your account" data-testid="account-nav-mobile">
      <div className="flex items-center gap-3 px-3 py-2">
        <Avatar me={account} />
        <p className="min-w-0 leading-tight">
          <span className="block truncate font-semibold text-white">{account.displayName}</span>
          <span className="block text-sm text-slate-300">
            {roleLabels[account.role]}
            {account.organisation ? ` · ${account.organisation.name}` : ''}
          </span>
        </p>
      </div>
      <ul className="grid gap-1">
        <li>
          <Link href="/account" className={mobileLinkClass} onClick={onNavigate}>
            Account
          </Link>
        </li>
        {account.organisation && (
          <li>
            <Link href="/cmi5" className={mobileLinkClass} onClick={onNavigate}>
              Courses
            </Link>
          </li>
        )}
        {canManageOrganisation(account) && (
          <>
            <li>
              <Link href="/portal" className={mobileLinkClass} onClick={onNavigate}>
                Portal
              </Link>
            </li>
            <li>
              <Link href="/portal/live" className={mobileLinkClass} onClick={onNavigate}>
                Live view
              </Link>
            </li>
            <li>
              <Link href="/organisation" className={mobileLinkClass} onClick={onNavigate}>
                Organisation
              </Link>
            </li>
          </>
        )}
        <li>
          <button
            type="button"
            className={cn(mobileLinkClass, 'w-full text-left')}
            disabled={signOut.pending}
            onClick={() => {
              onNavigate()
              void signOut.run()
            }}
          >
            Sign out
          </button>
        </li>
      </ul>
    </section>
  )
}
