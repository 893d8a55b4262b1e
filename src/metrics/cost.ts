/** What verifying one claim consumed. */
export interface ClaimUsage {
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  toolCalls: number;
}

export interface UsageAggregate {
  claims: number;
  total: ClaimUsage & { totalTokens: number };
  /** Per claim; 0 when there are no claims. */
  mean: ClaimUsage & { totalTokens: number };
}

const USAGE_FIELDS = ['llmCalls', 'promptTokens', 'completionTokens', 'costUsd', 'toolCalls'] as const;

function withTotalTokens(usage: ClaimUsage): ClaimUsage & { totalTokens: number } {
  return { ...usage, totalTokens: usage.promptTokens + usage.completionTokens };
}

export function aggregateUsage(usages: readonly ClaimUsage[]): UsageAggregate {
  const total = Object.fromEntries(USAGE_FIELDS.map((field) => [field, usages.reduce((sum, u) => sum + u[field], 0)])) as unknown as ClaimUsage;
  const divisor = Math.max(usages.length, 1);
  const mean = Object.fromEntries(USAGE_FIELDS.map((field) => [field, total[field] / divisor])) as unknown as ClaimUsage;
  return { claims: usages.length, total: withTotalTokens(total), mean: withTotalTokens(mean) };
}
