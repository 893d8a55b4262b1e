import type { VerdictLabel } from '../constants';
import type { DocumentClaimVerdict } from './document';

/**
 * A whole text's label from its claims, for benchmarks labelled per response (FELM, and the
 * response-level use of Factcheck-Bench): REFUTED when any verified claim is refuted (a response
 * with one false claim is not factual), SUPPORTED when at least one claim is supported and none
 * refuted, NEI when no claim was verified or every verified claim is NEI. Duplicates carry the
 * label of the claim they repeat, so they change nothing; skipped and failed claims have none.
 */
export function documentLabel(claims: readonly Pick<DocumentClaimVerdict, 'label'>[]): VerdictLabel {
  const labels = new Set(claims.flatMap((claim) => (claim.label ? [claim.label] : [])));
  if (labels.has('REFUTED')) return 'REFUTED';
  if (labels.has('SUPPORTED')) return 'SUPPORTED';
  return 'NEI';
}
