import { PageShell } from '@/components/page-shell'
import { TradeSkillsDemo } from '@/features/home'

/**
 * Interactive Skills Training Demo (route table, spec 000 §2; reached from
 * View Demo and Training → Start Training): the trade skills demo, then the
 * chosen trade's first module to train in, hands-on, without an account.
 */
export default function DemoPage() {
  return (
    <>
      <PageShell title="Interactive Skills Training Demo" className="pb-0" />
      <TradeSkillsDemo handsOn />
    </>
  )
}
