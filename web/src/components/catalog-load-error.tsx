import { Button } from '@/components/ui/button'

/** The catalog pages' answer to a failed load: what went wrong and a retry. */
export function CatalogLoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" className="mt-10 rounded-lg border border-red-500/40 bg-red-500/10 p-5 text-red-100">
      <p>The training catalog could not be loaded.</p>
      <Button variant="outline" size="sm" className="mt-3" onClick={onRetry}>
        Try again
      </Button>
    </div>
  )
}
