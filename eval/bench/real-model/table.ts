import type { ConfidenceInterval } from '../../../src/metrics';
import type { MethodThroughput } from './results-file';

/** One dataset × method of bench:real-model. */
export interface RealModelRow {
  dataset: string;
  method: string;
  claims: number;
  scheme: string;
  accuracy: ConfidenceInterval;
  macroF1: ConfidenceInterval;
  /** Verifications that ended without a verdict (counted as wrong in the metrics). */
  failed: number;
  /** Verdicts whose label does not map onto the dataset's scheme. */
  invalidLabels: number;
  /** LLM answers that did not parse or match the schema (each handled as the method's paper does). */
  invalidAnswers: number;
  llmCalls: number;
  toolCallsPerClaim: number;
  claimsWithToolCalls: number;
  tokensPerClaim: number;
  secondsPerClaim: number;
}

const interval = (ci: ConfidenceInterval) => `${ci.estimate.toFixed(3)} [${ci.lower.toFixed(2)}, ${ci.upper.toFixed(2)}]`;
const share = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : '–');

/** The benchmark's Markdown table, then the throughput comparison per method. */
export function renderRealModelTable(heading: string, rows: readonly RealModelRow[], throughput: readonly MethodThroughput[]): string {
  const lines = [
    `Model: ${heading}. Not the papers' models: a small model's accuracy is not theirs.`,
    '',
    '| dataset | method | claims | accuracy [95% CI] | macro-F1 [95% CI] | failed | invalid answers (of LLM calls) | tool calls / claim | claims with a tool call | tokens / claim | s / claim |',
    '|---|---|---:|---|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) =>
      [
        r.dataset, r.method, r.claims, interval(r.accuracy), interval(r.macroF1), r.failed,
        `${r.invalidAnswers} (${share(r.invalidAnswers, r.llmCalls)})`, r.toolCallsPerClaim.toFixed(1),
        `${r.claimsWithToolCalls}/${r.claims}`, Math.round(r.tokensPerClaim), r.secondsPerClaim.toFixed(1),
      ].join(' | ').replace(/^/, '| ').replace(/$/, ' |'),
    ),
    '',
    '| method | sweep tokens/s (tokens, paid requests, s) | server alone tokens/s (same requests) | ratio (target ≥ 0.9) | server busy during the sweep (its /metrics) |',
    '|---|---:|---:|---:|---:|',
    ...throughput.map(({ method, sweep, standalone, ratio, server }) =>
      `| ${method} | ${sweep.tokensPerSecond.toFixed(1)} (${sweep.tokens}, ${sweep.requests ?? '?'}, ${sweep.seconds.toFixed(0)}) | ${standalone.tokensPerSecond.toFixed(1)} (${standalone.requests ?? '?'} requests) | ${ratio === null ? '–' : ratio.toFixed(2)} | ${server ? `${(100 * server.busyShare).toFixed(0)}% (${server.busySeconds.toFixed(0)} s)` : '–'} |`,
    ),
  ];
  return lines.join('\n');
}
