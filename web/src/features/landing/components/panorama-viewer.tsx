import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react'
import { compassPoint, headingAfterDrag, headingAfterKey } from '../lib/panorama'

/**
 * A 360° view: a panorama strip that turns with a drag or the arrow keys
 * (Page Up/Down a quarter turn, Home back to the start). It is a slider to
 * assistive technology, its value the heading in degrees.
 */
export function PanoramaViewer({ src, label }: { src: string; label: string }) {
  const [heading, setHeading] = useState(0)
  const drag = useRef<{ x: number; heading: number } | null>(null)
  const box = useRef<HTMLDivElement>(null)

  const onKeyDown = (event: KeyboardEvent) => {
    const next = headingAfterKey(heading, event.key)
    if (next === null) return
    event.preventDefault()
    setHeading(next)
  }
  const onPointerDown = (event: PointerEvent) => {
    drag.current = { x: event.clientX, heading }
    event.currentTarget.setPointerCapture?.(event.pointerId)
  }
  const onPointerMove = (event: PointerEvent) => {
    if (!drag.current) return
    setHeading(headingAfterDrag(drag.current.heading, event.clientX - drag.current.x, box.current?.clientWidth ?? 0))
  }
  const endDrag = () => {
    drag.current = null
  }

  return (
    <div
      ref={box}
      role="slider"
      tabIndex={0}
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={359}
      aria-valuenow={heading}
      aria-valuetext={`Facing ${heading} degrees, ${compassPoint(heading)}`}
      aria-describedby="panorama-help"
      data-testid="panorama"
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endDrag}
      onPointerCancel={endDrag}
      className="absolute inset-0 cursor-grab touch-none select-none overflow-hidden bg-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-amber-400 active:cursor-grabbing"
    >
      {/* Two copies side by side: shifting by up to one copy's width covers the full turn seamlessly. */}
      <div className="flex h-full w-max" style={{ transform: `translateX(${(-heading / 360) * 50}%)` }}>
        <img src={src} alt="" draggable={false} className="h-full w-auto max-w-none" />
        <img src={src} alt="" draggable={false} className="h-full w-auto max-w-none" />
      </div>
      <p id="panorama-help" className="absolute bottom-2 left-2 rounded bg-black/60 px-2 py-1 text-xs text-white">
        Drag or use the arrow keys to look around · {heading}°
      </p>
    </div>
  )
}
