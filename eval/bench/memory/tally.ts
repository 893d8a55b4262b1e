import type { Verdict } from '../../../src/shared/verify';
import type { MermaidTrace } from '../../../src/methods/mermaid/sandbox/mermaid.workflow';

/** One memory mode's outcome over the ordered claims. */
export interface ModeTally {
  mode: 'on' | 'off';
  claims: number;
  /** External tool calls (failed ones included, as the paper counts them). */
  toolCalls: number;
  claimsWithoutToolCalls: number;
  /** Claims whose recall returned at least one entry. */
  memoryHitClaims: number;
  llmCalls: number;
  forced: number;
  durationMs: number;
}

export function tally(mode: ModeTally['mode'], verdicts: readonly Verdict[], durationMs: number): ModeTally {
  const traces = verdicts.map((verdict) => verdict.trace as MermaidTrace | undefined);
  return {
    mode,
    claims: verdicts.length,
    toolCalls: verdicts.reduce((sum, verdict) => sum + verdict.usage.toolCalls, 0),
    claimsWithoutToolCalls: verdicts.filter((verdict) => verdict.usage.toolCalls === 0).length,
    memoryHitClaims: traces.filter((trace) => (trace?.memory.recalled.length ?? 0) > 0).length,
    llmCalls: verdicts.reduce((sum, verdict) => sum + verdict.usage.llmCalls, 0),
    forced: traces.filter((trace) => trace?.forced).length,
    durationMs,
  };
}

/** Relative change of tool calls from memory off to on (negative: fewer calls). */
export function reduction(off: ModeTally, on: ModeTally): { calls: number; percent: number } {
  const calls = on.toolCalls - off.toolCalls;
  return { calls, percent: off.toolCalls === 0 ? 0 : (100 * calls) / off.toolCalls };
}

/** The paper's Figure 3 (GPT-5-mini, FactCheck-Bench) and the spec's hit count from the released decompositions (§10.2). */
export const REFERENCE = { withoutMemory: 757, withMemory: 531, percent: -29.9, hitClaims: 436, claims: 631 } as const;

export function renderTable(off: ModeTally, on: ModeTally): string {
  const { calls, percent } = reduction(off, on);
  const row = (t: ModeTally) =>
    `| ${t.mode.padEnd(6)} | ${String(t.claims).padStart(6)} | ${String(t.toolCalls).padStart(10)} | ${(t.toolCalls / Math.max(t.claims, 1)).toFixed(2).padStart(9)} | ${String(t.claimsWithoutToolCalls).padStart(13)} | ${String(t.memoryHitClaims).padStart(11)} | ${String(t.llmCalls).padStart(9)} |`;
  return [
    '| memory | claims | tool calls | per claim | 0-call claims | memory hits | LLM calls |',
    '|--------|-------:|-----------:|----------:|--------------:|------------:|----------:|',
    row(off),
    row(on),
    '',
    `tool calls with memory vs without: ${off.toolCalls} → ${on.toolCalls} (${calls >= 0 ? '+' : ''}${calls}, ${percent >= 0 ? '+' : ''}${percent.toFixed(1)}%)`,
    `memory hit rate (≥1 recalled entry): ${on.memoryHitClaims} / ${on.claims} (${((100 * on.memoryHitClaims) / Math.max(on.claims, 1)).toFixed(1)}%)`,
    `reference: paper Fig. 3 (GPT-5-mini) ${REFERENCE.withoutMemory} → ${REFERENCE.withMemory} (${REFERENCE.percent}%); released-log hit rate with substring recall ${REFERENCE.hitClaims} / ${REFERENCE.claims}`,
  ].join('\n');
}
