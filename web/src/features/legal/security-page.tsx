import { contactEmail } from '@/content/navigation'
import { DocumentPage, Section, inlineLink } from '@/features/legal/document'

/** Security (footer): how the platform protects accounts, records and equipment, as built. */
export default function SecurityPage() {
  return (
    <DocumentPage
      title="Security"
      lead="Training records are people's qualifications and a plant's equipment is its safety. This is how Journeyman XR protects both."
    >
      <Section title="Accounts and passwords">
        <ul>
          <li>Passwords are stored only as Argon2id hashes, each with its own salt.</li>
          <li>
            A password has at least 8 and at most 128 characters, and commonly used passwords are refused, as NIST SP 800-63B recommends; there are
            no arbitrary composition rules.
          </li>
          <li>Sign-in attempts are limited per address and per account, so a password cannot be guessed by trying.</li>
          <li>
            Signing in sets an HttpOnly cookie that scripts cannot read. It ends after 7 days unused and 30 days after sign-in in any case, and
            Sign out everywhere ends every session of the account at once.
          </li>
        </ul>
      </Section>
      <Section title="Who sees what">
        <ul>
          <li>Every request is checked against the role of the account making it: guest, learner, instructor or admin.</li>
          <li>A learner's sessions, scores and certificates are theirs, and their organisation's instructors' and admins'; nobody else's.</li>
          <li>Only an organisation's admins invite people, change roles and issue its xAPI credentials; an xAPI secret is shown once and kept only as a hash.</li>
          <li>Scores and completions are judged by the server from what it received, not taken from the browser's word.</li>
        </ul>
      </Section>
      <Section title="Equipment">
        <ul>
          <li>A digital twin's device address and login are shown only to the staff of the organisation that added it.</li>
          <li>On the built-in telemetry broker each twin has its own device login, which may publish that twin's readings and nothing else.</li>
          <li>Simulated field devices are read-only, except the values an OPC UA client signed in with the twin's login may write.</li>
        </ul>
      </Section>
      <Section title="In the browser">
        <ul>
          <li>The app loads nothing from other hosts: no external scripts, fonts, videos or trackers, so it runs offline in a training centre.</li>
          <li>
            A Content Security Policy admits only the app's own origin; changes sent from other sites are refused; over HTTPS, browsers are told to
            use HTTPS only.
          </li>
          <li>Requests, uploads and realtime messages have explicit size and rate limits.</li>
        </ul>
      </Section>
      <Section title="Reporting a problem">
        <p>
          If you find a weakness, write to{' '}
          <a href={`mailto:${contactEmail}`} className={inlineLink}>
            {contactEmail}
          </a>{' '}
          before telling anyone else, so that it can be fixed first.
        </p>
      </Section>
    </DocumentPage>
  )
}
