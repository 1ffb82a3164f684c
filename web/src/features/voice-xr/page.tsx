import { PageShell } from '@/components/page-shell'
import { VoiceTrainingConsole } from '@/features/voice-xr/components/voice-training-console'

export { VoiceTrainingConsole }

/** Voice-Activated Training (route table, spec 000 §2; spec 001 §2). */
export default function VoiceXrPage() {
  return (
    <PageShell title="Voice-Activated Training">
      <p className="mt-3 max-w-3xl text-slate-300">
        Run real trade procedures hands-free: activate a module, start voice control and say its commands.
      </p>
      <div className="mt-8">
        <VoiceTrainingConsole />
      </div>
    </PageShell>
  )
}
