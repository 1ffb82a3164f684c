import { Link } from 'wouter'
import { DocumentPage, Section, inlineLink } from '@/features/legal/document'

/** Terms of Service (footer): the rules of using the platform, and what its training is and is not. */
export default function TermsPage() {
  return (
    <DocumentPage
      title="Terms of Service"
      lead="Journeyman XR is for training organisations, employers, instructors and apprentices in the trades, and for anyone trying it as a guest."
    >
      <Section title="Training is preparation, not permission">
        <ul>
          <li>
            Simulated training prepares you for the work. It does not replace hands-on training under a qualified supervisor, your employer's
            procedures, or the licences and certifications your trade and jurisdiction require.
          </li>
          <li>A Journeyman XR certificate records that you completed a module here. It is not a licence to do the work.</li>
          <li>Never apply a procedure you trained here to live equipment without your employer's procedure and authorisation.</li>
          <li>
            The digital twin monitor shows the readings it receives. It is not a safety system: do not rely on it to protect people or
            equipment.
          </li>
        </ul>
      </Section>
      <Section title="Your account">
        <ul>
          <li>An account is for one person. Keep your password to yourself, and use Sign out everywhere if you think someone else knows it.</li>
          <li>
            When an organisation invites you, its admins manage your role and cohort, and its instructors and admins see your training records
            there. An admin may remove you from the organisation.
          </li>
        </ul>
      </Section>
      <Section title="Fair use">
        <ul>
          <li>Do not try to reach other people's records or accounts, or to record results you did not earn.</li>
          <li>
            Do not overload or probe the service. If you find a weakness, report it as the <Link href="/security" className={inlineLink}>Security</Link>{' '}
            page says.
          </li>
        </ul>
      </Section>
      <Section title="Your records">
        <p>
          What the platform keeps, and who sees it, is in the <Link href="/privacy" className={inlineLink}>Privacy Policy</Link>. An organisation's
          training records are also its own in the field's standard form: its admins can read them as xAPI statements and forward them to
          another learning record store.
        </p>
      </Section>
    </DocumentPage>
  )
}
