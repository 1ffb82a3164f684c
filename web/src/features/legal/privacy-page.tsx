import { Link } from 'wouter'
import { contactEmail } from '@/content/navigation'
import { DocumentPage, Section, inlineLink } from '@/features/legal/document'

/** Privacy Policy (footer): what the platform keeps, why, and who sees it, as built. */
export default function PrivacyPage() {
  return (
    <DocumentPage
      title="Privacy Policy"
      lead="Journeyman XR keeps what your training needs and nothing for anyone else: no advertising, no trackers, and the app sends nothing to other sites."
    >
      <Section title="Without an account">
        <p>
          Your browser keeps a cookie named <code>journeyman_guest</code> for up to 400 days. It holds a signed guest number, so that the
          sessions, learning path and preferences you make as a guest are still yours when you come back. Clearing your cookies starts a new
          guest; what the old one recorded can no longer be reached from your browser.
        </p>
      </Section>
      <Section title="With an account">
        <ul>
          <li>Your email address and display name, and your password as a one-way hash that nobody can read back.</li>
          <li>Your organisation, cohort and role, when an organisation invited you.</li>
          <li>
            A sign-in cookie, <code>journeyman_session</code>, which ends after 7 days unused and 30 days after you signed in.
          </li>
          <li>When you create an account on a browser where you trained as a guest, the guest's records move into the account.</li>
        </ul>
      </Section>
      <Section title="Your training records">
        <ul>
          <li>
            Each training session: the module, the mode (VR, AR or desktop), when it started and ended, what you did in it and when, the safety
            checks, your score and whether you passed.
          </li>
          <li>Your learning path, skill assessments, personalization answers and certificates.</li>
          <li>
            For members of an organisation, the same records as xAPI statements, which the organisation may forward to its own learning record
            store.
          </li>
        </ul>
        <p>
          Voice training uses your browser's speech recognition; the app keeps the commands it understood, never audio. Depending on your
          browser, its speech recognition may be a service of the browser's maker.
        </p>
      </Section>
      <Section title="Who sees them">
        <ul>
          <li>You, in the Learning Hub, Analytics and your certificates.</li>
          <li>Your organisation's instructors and admins, in the Portal, to teach and assess you. Nobody in another organisation.</li>
          <li>
            Anyone you give a certificate's code to can check it on the <Link href="/verify" className={inlineLink}>verify page</Link>.
          </li>
        </ul>
        <p>
          A request for a demo keeps the name, email, organisation and message you send, to answer it. Equipment readings of digital twins are
          about machines, not people.
        </p>
      </Section>
      <Section title="Questions">
        <p>
          Your organisation's admins manage its members and their records. For anything else, write to{' '}
          <a href={`mailto:${contactEmail}`} className={inlineLink}>
            {contactEmail}
          </a>
          .
        </p>
      </Section>
    </DocumentPage>
  )
}
