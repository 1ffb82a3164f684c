import { useEffect, useState } from 'react'
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { SeriesPoint } from '@/content/analytics'
import { useAppearance } from '@/lib/appearance'

// The charts are aria-hidden (each figure carries its figures as a table), so
// recharts' keyboard layer is off: focusable content must not hide.
// recharts draws with SVG attributes, which cannot read CSS variables, so
// the palette of the learner's colour scheme is read once per scheme.
function usePalette() {
  const { appearance } = useAppearance()
  const read = () => {
    const css = getComputedStyle(document.documentElement)
    const get = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback
    return {
      accent: get('--color-amber-500', '#f59e0b'),
      second: get('--color-sky-400', '#38bdf8'),
      text: get('--color-slate-300', '#cbd5e1'),
      grid: get('--color-slate-700', '#334155'),
      panel: get('--color-slate-900', '#0f172a'),
    }
  }
  const [palette, setPalette] = useState(read)
  useEffect(() => {
    // The provider writes the scheme to <html> in its own effect, which runs after this one.
    const id = requestAnimationFrame(() => setPalette(read()))
    return () => cancelAnimationFrame(id)
  }, [appearance.colorScheme])
  return { palette, animate: !appearance.reducedMotion }
}

const height = 260

/** Sessions and minutes per bucket of the period. */
export function ActivityChart({ data }: { data: SeriesPoint[] }) {
  const { palette, animate } = usePalette()
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, left: -12, bottom: 0 }}>
        <CartesianGrid stroke={palette.grid} strokeDasharray="3 3" />
        <XAxis dataKey="label" stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} />
        <YAxis yAxisId="m" stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} />
        <YAxis yAxisId="s" orientation="right" allowDecimals={false} stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} />
        <Tooltip contentStyle={{ background: palette.panel, border: `1px solid ${palette.grid}` }} />
        <Legend wrapperStyle={{ color: palette.text }} />
        <Bar yAxisId="m" dataKey="minutes" name="Minutes trained" fill={palette.accent} isAnimationActive={animate} />
        <Bar yAxisId="s" dataKey="sessions" name="Sessions" fill={palette.second} isAnimationActive={animate} />
      </BarChart>
    </ResponsiveContainer>
  )
}

/** Average safety score per bucket. */
export function SafetyTrendChart({ data }: { data: SeriesPoint[] }) {
  const { palette, animate } = usePalette()
  return (
    <ResponsiveContainer width="100%" height={height}>
      <LineChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 16, left: -12, bottom: 0 }}>
        <CartesianGrid stroke={palette.grid} strokeDasharray="3 3" />
        <XAxis dataKey="label" stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} />
        <YAxis domain={[0, 100]} stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} />
        <Tooltip contentStyle={{ background: palette.panel, border: `1px solid ${palette.grid}` }} />
        <Line type="monotone" dataKey="safety" name="Safety score %" stroke={palette.accent} strokeWidth={2} connectNulls isAnimationActive={animate} />
      </LineChart>
    </ResponsiveContainer>
  )
}

/** Percent complete per trade. */
export function TradeProgressChart({ data }: { data: { trade: string; percent: number }[] }) {
  const { palette, animate } = usePalette()
  return (
    <ResponsiveContainer width="100%" height={Math.max(120, data.length * 48)}>
      <BarChart accessibilityLayer={false} data={data} layout="vertical" margin={{ top: 8, right: 16, left: 24, bottom: 0 }}>
        <CartesianGrid stroke={palette.grid} strokeDasharray="3 3" />
        <XAxis type="number" domain={[0, 100]} stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} />
        <YAxis type="category" dataKey="trade" width={110} stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} />
        <Tooltip contentStyle={{ background: palette.panel, border: `1px solid ${palette.grid}` }} />
        <Bar dataKey="percent" name="% complete" fill={palette.accent} isAnimationActive={animate} />
      </BarChart>
    </ResponsiveContainer>
  )
}

/** The learner against the reference figures; a null figure has no bar. */
export function BenchmarkChart({ data, referenceLabel }: { data: { metric: string; you: number | null; reference: number | null }[]; referenceLabel: string }) {
  const { palette, animate } = usePalette()
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, left: -12, bottom: 0 }}>
        <CartesianGrid stroke={palette.grid} strokeDasharray="3 3" />
        <XAxis dataKey="metric" stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} />
        <YAxis stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} />
        <Tooltip contentStyle={{ background: palette.panel, border: `1px solid ${palette.grid}` }} />
        <Legend wrapperStyle={{ color: palette.text }} />
        <Bar dataKey="you" name="You" fill={palette.accent} isAnimationActive={animate} />
        <Bar dataKey="reference" name={referenceLabel} fill={palette.second} isAnimationActive={animate} />
      </BarChart>
    </ResponsiveContainer>
  )
}
