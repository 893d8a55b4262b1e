import type { Verdict } from '../../../src/shared/verify';
import { relevanceDistribution, renderRelevanceDistribution, type RelevanceDistribution } from './relevance-histogram';

/** What the benchmark reads from one Tool-MAD verdict. */
export interface DebateRecord {
  dataset: string;
  llmCalls: number;
  cachedLlmCalls: number;
  toolCalls: number;
  totalTokens: number;
  roundsUsed: number;
  decidedBy: 'consensus' | 'judge';
  label: string;
  /** Answer relevance of every debater turn that has one. */
  relevanceScores: number[];
}

export function debateRecord(verdict: Verdict): DebateRecord {
  const trace = (verdict.trace ?? {}) as { roundsUsed?: unknown; decidedBy?: unknown; rounds?: { turns?: { answerRelevance?: unknown }[] }[] };
  if (typeof trace.roundsUsed !== 'number' || (trace.decidedBy !== 'consensus' && trace.decidedBy !== 'judge')) {
    throw new Error(`verdict ${verdict.workflowId} has no tool-mad trace`);
  }
  return {
    dataset: verdict.dataset ?? 'unknown',
    llmCalls: verdict.usage.llmCalls,
    cachedLlmCalls: verdict.usage.cachedLlmCalls,
    toolCalls: verdict.usage.toolCalls,
    totalTokens: verdict.usage.totalTokens,
    roundsUsed: trace.roundsUsed,
    decidedBy: trace.decidedBy,
    label: verdict.label,
    relevanceScores: (trace.rounds ?? []).flatMap((round) => (round.turns ?? []).map((turn) => turn.answerRelevance)).filter((score): score is number => typeof score === 'number'),
  };
}

export interface DebateStats {
  dataset: string;
  claims: number;
  llmCalls: { mean: number; min: number; max: number };
  /** Calls answered from the LLM request cache (repeated identical prompts in later rounds). */
  cachedLlmCallsMean: number;
  toolCallsMean: number;
  tokensMean: number;
  /** Claims per rounds used, 1..T. */
  roundsUsed: Record<number, number>;
  /** Claims that ended by gated consensus, per round. */
  consensusAtRound: Record<number, number>;
  judgeDecided: number;
  judgeShare: number;
  labels: Record<string, number>;
  relevance: RelevanceDistribution;
}

/** `relevanceThreshold`: the gate the run used (0.8 by default), to count the turns that pass it. */
export function debateStats(dataset: string, records: readonly DebateRecord[], relevanceThreshold = 0.8): DebateStats {
  if (records.length === 0) throw new Error(`no verdicts for ${dataset}`);
  const calls = records.map((r) => r.llmCalls);
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
  const count = <K extends string | number>(keys: K[]) => keys.reduce<Record<K, number>>((acc, k) => ({ ...acc, [k]: (acc[k] ?? 0) + 1 }), {} as Record<K, number>);
  const judged = records.filter((r) => r.decidedBy === 'judge').length;
  return {
    dataset,
    claims: records.length,
    llmCalls: { mean: mean(calls), min: Math.min(...calls), max: Math.max(...calls) },
    cachedLlmCallsMean: mean(records.map((r) => r.cachedLlmCalls)),
    toolCallsMean: mean(records.map((r) => r.toolCalls)),
    tokensMean: mean(records.map((r) => r.totalTokens)),
    roundsUsed: count(records.map((r) => r.roundsUsed)),
    consensusAtRound: count(records.filter((r) => r.decidedBy === 'consensus').map((r) => r.roundsUsed)),
    judgeDecided: judged,
    judgeShare: judged / records.length,
    labels: count(records.map((r) => r.label)),
    relevance: relevanceDistribution(records.flatMap((r) => r.relevanceScores), relevanceThreshold),
  };
}

const pct = (share: number) => `${(100 * share).toFixed(1)}%`;
const dist = (counts: Record<number, number>, total: number, maxRounds: number) =>
  Array.from({ length: maxRounds }, (_, i) => `${i + 1}: ${counts[i + 1] ?? 0} (${pct((counts[i + 1] ?? 0) / total)})`).join(', ');

export function renderDebateStats(rows: readonly DebateStats[], maxRounds: number): string {
  return rows
    .map((s) =>
      [
        `${s.dataset} (${s.claims} claims)`,
        `  LLM calls per claim: mean ${s.llmCalls.mean.toFixed(2)}, min ${s.llmCalls.min}, max ${s.llmCalls.max} (paper's bounds: 14 best, 43 worst); from the request cache: mean ${s.cachedLlmCallsMean.toFixed(2)}`,
        `  retrievals per claim: mean ${s.toolCallsMean.toFixed(2)}; tokens per claim: mean ${s.tokensMean.toFixed(0)}`,
        `  rounds used: ${dist(s.roundsUsed, s.claims, maxRounds)}`,
        `  gated consensus at round: ${dist(s.consensusAtRound, s.claims, maxRounds)}`,
        `  judge decided: ${s.judgeDecided}/${s.claims} (${pct(s.judgeShare)})`,
        `  labels (simulator, not accuracy): ${Object.entries(s.labels).map(([k, v]) => `${k} ${v}`).join(', ')}`,
        renderRelevanceDistribution(s.relevance),
      ].join('\n'),
    )
    .join('\n\n');
}
