import type { FaultRule } from '../faults';

/** Expires a batch (its requests past the first half stay unanswered): every Nth batch, or those whose input contains `match`, at most `times` batches. */
export interface BatchExpiryRule {
  everyNth?: number;
  match?: string;
  times?: number;
}

export interface BatchSimulatorOptions {
  /** Time from creation to completion (default 200 ms); validating for the first tenth, then in_progress. */
  turnaroundMs?: number;
  /** Faults of single requests in a batch (as for direct requests): a 429/500/timeout becomes a failed line in the error file. */
  lineFaults?: FaultRule[];
  expiry?: BatchExpiryRule[];
  /** Holds the answer to a batch create / a file download this long after doing it (a client killed meanwhile never learns the result). */
  delays?: { create?: number; content?: number };
}

export const DEFAULT_BATCH_TURNAROUND_MS = 200;

/** Decides which batches expire, deterministically in creation order. */
export class BatchExpiry {
  private created = 0;
  private expired = new Map<BatchExpiryRule, number>();

  constructor(private readonly rules: readonly BatchExpiryRule[]) {}

  /** Call once per created batch, with its input file's text. */
  next(inputText: string): boolean {
    this.created++;
    for (const rule of this.rules) {
      const count = this.expired.get(rule) ?? 0;
      if (rule.times !== undefined && count >= rule.times) continue;
      const hit = rule.match !== undefined ? inputText.includes(rule.match) : rule.everyNth !== undefined && this.created % rule.everyNth === 0;
      if (!hit) continue;
      this.expired.set(rule, count + 1);
      return true;
    }
    return false;
  }
}

/**
 * Parses a CLI batch-expiry spec: `every=<n>` (every Nth batch), `match=<text>` or `first-match=<text>`
 * (batches whose input contains the text; first-match: only the first).
 */
export function parseBatchExpirySpec(spec: string): BatchExpiryRule {
  const every = /^every=(\d+)$/.exec(spec);
  if (every && Number(every[1]) >= 1) return { everyNth: Number(every[1]) };
  const matching = /^(match|first-match)=(.+)$/s.exec(spec);
  if (matching) return { match: matching[2]!, ...(matching[1] === 'first-match' ? { times: 1 } : {}) };
  throw new Error(`invalid batch expiry '${spec}': expected every=<n>, match=<text> or first-match=<text>`);
}
