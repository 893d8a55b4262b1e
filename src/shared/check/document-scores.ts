import type { VerdictLabel } from '../constants';
import type { DocumentScores } from './document';

export interface ScoredClaim {
  label?: VerdictLabel;
  skipped?: string;
  failure?: string;
}

/**
 * FActScore-style precision and SAFE's F1@K over a document's claims. Supported: SUPPORTED;
 * not supported: REFUTED and NEI (SAFE and FActScore rate a fact the evidence does not support as
 * not supported); skipped and failed claims are left out of both, and counted apart.
 * Precision = S / (S + N); recall@K = min(S / K, 1); F1@K = 2PR / (P + R), 0 when S = 0.
 */
export function documentScores(claims: readonly ScoredClaim[], k: number): DocumentScores {
  if (!Number.isInteger(k) || k < 1) throw new Error(`K must be a whole number above 0, not ${k}`);
  let supported = 0;
  let refuted = 0;
  let nei = 0;
  let failed = 0;
  let skipped = 0;
  for (const claim of claims) {
    if (claim.skipped) skipped += 1;
    else if (claim.failure || !claim.label) failed += 1;
    else if (claim.label === 'SUPPORTED') supported += 1;
    else if (claim.label === 'REFUTED') refuted += 1;
    else nei += 1;
  }
  const notSupported = refuted + nei;
  const checked = supported + notSupported;
  const precision = checked === 0 ? null : supported / checked;
  const recallAtK = Math.min(supported / k, 1);
  const f1AtK = supported === 0 || precision === null ? 0 : (2 * precision * recallAtK) / (precision + recallAtK);
  return { supported, notSupported, nei, failed, skipped, precision, k, recallAtK, f1AtK };
}
