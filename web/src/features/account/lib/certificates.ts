import type { Competencies } from '@/api/certificates'

/**
 * What the account's Certificates card shows of the competencies answer:
 * every certificate, newest first as the server lists them, revoked ones
 * too (a learner should see that one no longer holds), and the programmes
 * the learner has started, with how many competencies they hold.
 */
export function certificateSummary({ certificates, programmes }: Competencies) {
  return { certificates, started: programmes.filter((p) => p.held > 0) }
}
