import { PageShell } from '@/components/page-shell'

/** Interactive Skills Training Demo (route table, spec 000 §2). */
export default function DemoPage() {
  return <PageShell title="Interactive Skills Training Demo" />
}
