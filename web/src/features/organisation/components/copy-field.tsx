import { useId, useImperativeHandle, useRef, useState, type Ref } from 'react'
import { Check, Copy } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'

/**
 * A link or secret shown read-only with a Copy button. Where the Clipboard API is
 * refused (an http origin, a denied permission), the text is selected so
 * the admin can copy it by hand, and told so. ref is the text box, for
 * giving it focus (which selects the text).
 */
export function CopyField({ label, value, hint, ref }: { label: string; value: string; hint?: string; ref?: Ref<HTMLInputElement> }) {
  const id = useId()
  const inputRef = useRef<HTMLInputElement>(null)
  useImperativeHandle(ref, () => inputRef.current as HTMLInputElement, [])
  const [status, setStatus] = useState('')

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      setStatus('Copied to the clipboard.')
    } catch {
      inputRef.current?.focus()
      inputRef.current?.select()
      setStatus('Copying was refused by the browser: the text is selected, copy it with Ctrl+C or ⌘C.')
    }
  }

  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <Input
          ref={inputRef}
          id={id}
          readOnly
          value={value}
          className="font-mono text-xs"
          aria-describedby={hint ? `${id}-hint` : undefined}
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button type="button" variant="secondary" onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
          {status.startsWith('Copied') ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          Copy
        </Button>
      </div>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-300">
          {hint}
        </p>
      )}
      <p role="status" className="text-xs text-emerald-300">
        {status}
      </p>
    </div>
  )
}
