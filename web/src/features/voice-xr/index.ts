/** The voice training feature's public export: the console, for pages that embed it (/advanced). */
export { VoiceTrainingConsole } from './components/voice-training-console'
