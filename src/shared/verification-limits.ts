/**
 * Per-verification limits on tokens, cost and wall time (sandbox-safe). A verification that
 * reaches one ends with a failure of type `VerificationLimitReached` whose details carry what it
 * spent, so the sweep's accounting keeps it.
 */
export interface VerificationLimits {
  tokens?: number;
  usd?: number;
  /** Wall time since the verification started, checked before each LLM or tool call. */
  seconds?: number;
}

export const LIMIT_REACHED_TYPE = 'VerificationLimitReached';

/**
 * A verification that failed for another reason after paying for LLM calls: this failure wraps the
 * cause and carries the spend in its details (as LimitReachedDetails), so budgets count it.
 */
export const FAILED_AFTER_SPENDING_TYPE = 'VerificationFailedAfterSpending';

/** What a limit-reached failure carries in its details. */
export interface LimitReachedDetails {
  limit: keyof VerificationLimits;
  usage: { totalTokens: number; costUsd: number };
}

/** The limit a verification has reached (a one-line reason), or null. */
export function findLimitReached(
  usage: { totalTokens: number; costUsd: number },
  elapsedMs: number,
  limits: VerificationLimits | undefined,
): { limit: keyof VerificationLimits; reason: string } | null {
  if (!limits) return null;
  if (limits.tokens !== undefined && usage.totalTokens >= limits.tokens) {
    return { limit: 'tokens', reason: `token limit reached: ${usage.totalTokens} tokens used, limit ${limits.tokens}` };
  }
  if (limits.usd !== undefined && usage.costUsd >= limits.usd) {
    return { limit: 'usd', reason: `cost limit reached: $${usage.costUsd.toFixed(6)} spent, limit $${limits.usd}` };
  }
  if (limits.seconds !== undefined && elapsedMs >= limits.seconds * 1000) {
    return { limit: 'seconds', reason: `wall-time limit reached: ${(elapsedMs / 1000).toFixed(1)} s, limit ${limits.seconds} s` };
  }
  return null;
}

interface FailureLike {
  type?: unknown;
  details?: unknown;
  cause?: unknown;
}

/** What a failed verification spent, when its failure (anywhere in the cause chain) is a limit reached or carries its spend. */
export function spentBeforeLimit(err: unknown): { tokens: number; costUsd: number } | undefined {
  let current = err as FailureLike | undefined;
  while (current && typeof current === 'object') {
    if ((current.type === LIMIT_REACHED_TYPE || current.type === FAILED_AFTER_SPENDING_TYPE) && Array.isArray(current.details)) {
      const details = current.details[0] as Partial<LimitReachedDetails> | undefined;
      const usage = details?.usage;
      if (usage && typeof usage.totalTokens === 'number' && typeof usage.costUsd === 'number') return { tokens: usage.totalTokens, costUsd: usage.costUsd };
    }
    current = current.cause as FailureLike | undefined;
  }
  return undefined;
}
