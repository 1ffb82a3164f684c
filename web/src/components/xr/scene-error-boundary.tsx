import { Component, type ErrorInfo, type ReactNode } from 'react'

/**
 * Keeps a failed 3D view (no WebGL, a lost context) from taking the page
 * down: the step list stays usable from the keyboard.
 */
export class SceneErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, { failed: boolean; resetKey?: string }> {
  state = { failed: false, resetKey: this.props.resetKey }

  static getDerivedStateFromError() {
    return { failed: true }
  }

  static getDerivedStateFromProps(props: { resetKey?: string }, state: { failed: boolean; resetKey?: string }) {
    return props.resetKey !== state.resetKey ? { failed: false, resetKey: props.resetKey } : null
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('3D scene failed', error, info.componentStack)
  }

  render() {
    if (this.state.failed) {
      return (
        <div role="status" className="flex h-[200px] items-center justify-center rounded-lg border border-white/10 bg-slate-900 p-6 text-center text-sm text-slate-300">
          The 3D view is not available in this browser. You can still do every step from the step list.
        </div>
      )
    }
    return this.props.children
  }
}
