import { Link } from 'wouter'
import { Button } from '@/components/ui/button'
import { roleLabels, useSignOut, type Me } from '@/api/account'

/** What /sign-in and /sign-up show to someone already signed in; onSignedOut runs once this notice has made way for the form. */
export function SignedInNotice({ me, onSignedOut }: { me: Me; onSignedOut: () => void }) {
  const signOut = useSignOut()
  return (
    <div className="space-y-4">
      <p className="text-slate-200">
        You are signed in as <strong className="text-white">{me.displayName}</strong> ({me.email}, {roleLabels[me.role]}).
      </p>
      <div className="flex flex-wrap gap-2">
        <Button asChild>
          <Link href="/account">Go to your account</Link>
        </Button>
        {/* mutateAsync: this notice is gone by the time the sign-out is done, and mutate's callbacks go with it. */}
        <Button variant="outline" onClick={() => void signOut.mutateAsync().then(onSignedOut, () => {})} unavailable={signOut.isPending}>
          Sign out
        </Button>
      </div>
    </div>
  )
}
