import type { Verdict } from '../../../src/shared/verify';

/** What one verification cost, read from its verdict (usage) and trace (searches). */
export interface ClaimCost {
  dataset: string;
  method: string;
  llmCalls: number;
  /** Answered from the LLM request cache (not paid). */
  cachedLlmCalls: number;
  searches: number;
  totalTokens: number;
  costUsd: number;
  label: string;
  methodLabel?: string;
}

export interface Spread {
  mean: number;
  min: number;
  max: number;
}

export interface GroupStats {
  dataset: string;
  method: string;
  claims: number;
  llmCalls: Spread;
  searches: Spread;
  tokens: Spread;
  costUsd: Spread;
  totalCostUsd: number;
  cachedLlmCalls: number;
  /** methodLabel (true/false/failed) counts. */
  labels: Record<string, number>;
}

/** Web searches a verdict made: EMULATE's queries sent, FIRE's searches. */
export function searchesOf(verdict: Pick<Verdict, 'trace'>): number {
  const trace = verdict.trace as { method?: string; queries?: unknown[]; searches?: unknown[] } | undefined;
  if (trace?.method === 'emulate') return trace.queries?.length ?? 0;
  if (trace?.method === 'fire') return trace.searches?.length ?? 0;
  return 0;
}

export function claimCost(verdict: Verdict): ClaimCost {
  return {
    dataset: verdict.dataset ?? 'adhoc',
    method: verdict.method,
    llmCalls: verdict.usage.llmCalls,
    cachedLlmCalls: verdict.usage.cachedLlmCalls,
    searches: searchesOf(verdict),
    totalTokens: verdict.usage.totalTokens,
    costUsd: verdict.usage.costUsd,
    label: verdict.label,
    ...(verdict.methodLabel !== undefined ? { methodLabel: verdict.methodLabel } : {}),
  };
}

export function spread(values: readonly number[]): Spread {
  if (values.length === 0) return { mean: 0, min: 0, max: 0 };
  return { mean: values.reduce((a, b) => a + b, 0) / values.length, min: Math.min(...values), max: Math.max(...values) };
}

/** One row per (dataset, method), sorted by dataset then method. */
export function groupStats(costs: readonly ClaimCost[]): GroupStats[] {
  const groups = new Map<string, ClaimCost[]>();
  for (const cost of costs) {
    const key = `${cost.dataset}\u0000${cost.method}`;
    groups.set(key, [...(groups.get(key) ?? []), cost]);
  }
  const keys = [...groups.keys()].sort();
  return keys.map((key) => {
    const group = groups.get(key)!;
    const labels: Record<string, number> = {};
    for (const c of group) labels[c.methodLabel ?? c.label] = (labels[c.methodLabel ?? c.label] ?? 0) + 1;
    return {
      dataset: group[0]!.dataset,
      method: group[0]!.method,
      claims: group.length,
      llmCalls: spread(group.map((c) => c.llmCalls)),
      searches: spread(group.map((c) => c.searches)),
      tokens: spread(group.map((c) => c.totalTokens)),
      costUsd: spread(group.map((c) => c.costUsd)),
      totalCostUsd: group.reduce((sum, c) => sum + c.costUsd, 0),
      cachedLlmCalls: group.reduce((sum, c) => sum + c.cachedLlmCalls, 0),
      labels,
    };
  });
}

export function renderStatsTable(rows: readonly GroupStats[]): string {
  const f1 = (n: number) => n.toFixed(1);
  const range = (s: Spread, digits = 0) => `${s.mean.toFixed(digits === 0 ? 1 : digits)} [${s.min.toFixed(digits)}–${s.max.toFixed(digits)}]`;
  const header = ['dataset', 'method', 'claims', 'LLM calls mean [min–max]', 'searches mean [min–max]', 'tokens/claim mean [min–max]', 'cost/claim USD', 'total USD', 'cached calls', 'labels'];
  const lines = rows.map((r) => [
    r.dataset,
    r.method,
    String(r.claims),
    range(r.llmCalls),
    range(r.searches),
    `${f1(r.tokens.mean)} [${r.tokens.min}–${r.tokens.max}]`,
    r.costUsd.mean.toFixed(6),
    r.totalCostUsd.toFixed(4),
    String(r.cachedLlmCalls),
    Object.entries(r.labels)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', '),
  ]);
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
