import { Line, LineChart, YAxis } from 'recharts'
import type { DataStream } from '@/api/twin'

/** The stream's recent history as a small line; the table row carries the numbers, so it is decorative. */
export function StreamSparkline({ stream }: { stream: DataStream }) {
  const points = stream.history ?? []
  if (points.length < 2) return <span className="text-xs text-slate-300">—</span>
  return (
    <div aria-hidden="true" data-testid="stream-sparkline" data-points={points.length}>
      {/* No accessibility layer: it makes the chart focusable, and a decorative chart must not take the keyboard. */}
      <LineChart width={120} height={32} data={points} margin={{ top: 2, right: 2, bottom: 2, left: 2 }} accessibilityLayer={false}>
        <YAxis hide domain={['dataMin', 'dataMax']} />
        <Line type="monotone" dataKey="value" stroke="#f59e0b" strokeWidth={1.5} dot={false} isAnimationActive={false} />
      </LineChart>
    </div>
  )
}
