import { indexName } from '../es/indices';

/** Where a sweep keeps its records (contract with the sweep workflow). */
export const RUN_INDICES = {
  /** One RunManifest per run, `_id` = runId. */
  runs: 'runs',
  /** One document per (run, claim[, method, model]): the claim's gold label and, for failed verifications, why. */
  runClaims: 'run-claims',
  verdicts: 'verdicts',
} as const;

export function runIndex(prefix: string, logical: keyof typeof RUN_INDICES): string {
  return indexName(prefix, RUN_INDICES[logical]);
}
