import { Link } from 'wouter'
import { AlertCircle } from 'lucide-react'

/** The page for any path the route table does not know (spec 000 §2). */
export default function NotFoundPage() {
  return (
    <section className="flex min-h-[60vh] w-full items-center justify-center px-4 py-16">
      <div className="w-full max-w-md rounded-xl border border-white/10 bg-slate-900/80 p-6 shadow-xl">
        <div className="mb-4 flex gap-2">
          <AlertCircle className="h-8 w-8 shrink-0 text-red-400" aria-hidden="true" />
          <h1 className="text-2xl font-bold text-white">404 Page Not Found</h1>
        </div>
        <p className="mt-4 text-sm text-slate-300">Did you forget to add the page to the router?</p>
        <Link href="/" className="mt-6 inline-block text-sm font-medium text-amber-400 underline-offset-4 hover:underline">
          Back to the home page
        </Link>
      </div>
    </section>
  )
}
