import type { ConfidenceInterval } from '../../../src/metrics';
import type { MethodThroughput } from './results-file';

/** One dataset × method of bench:real-model. */
export interface RealModelRow {
  dataset: string;
  method: string;
  /** Claims scored: those with a gold label on the scheme (the metrics' denominator), failures included. */
  claims: number;
  /** Claims sampled and verified (more than `claims` when some gold labels are off the scheme, e.g. Factcheck-Bench's NEI on a binary scheme); absent in rows measured before. */
  sampled?: number;
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

/** "29 (of 30)" when some sampled claims have no gold label on the scheme, else "30". */
export function claimsCell(row: Pick<RealModelRow, 'claims' | 'sampled'>): string {
  return row.sampled !== undefined && row.sampled !== row.claims ? `${row.claims} (of ${row.sampled})` : String(row.claims);
}

/** The temperature each method's requests were sent with (and the papers', where they state one). */
export interface MethodTemperature {
  method: string;
  sent: string;
  paper?: string;
}

/** The benchmark's Markdown table, then the throughput comparison per method. */
export function renderRealModelTable(heading: string, rows: readonly RealModelRow[], throughput: readonly MethodThroughput[], temperatures: readonly MethodTemperature[] = []): string {
  const lines = [
    `Model: ${heading}. Not the papers' models: a small model's accuracy is not theirs.`,
    ...(temperatures.length > 0 ? [`Temperature sent: ${temperatures.map((t) => `${t.method} ${t.sent}${t.paper ? ` (papers: ${t.paper})` : ''}`).join('; ')}.`] : []),
    '',
    '| dataset | method | claims scored (of sampled) | accuracy [95% CI] | macro-F1 [95% CI] | failed | invalid answers (of LLM calls) | tool calls / claim | claims with a tool call | tokens / claim | s / claim |',
    '|---|---|---:|---|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) =>
      [
        r.dataset, r.method, claimsCell(r), interval(r.accuracy), interval(r.macroF1), r.failed,
        `${r.invalidAnswers} (${share(r.invalidAnswers, r.llmCalls)})`, r.toolCallsPerClaim.toFixed(1),
        `${r.claimsWithToolCalls}/${r.sampled ?? r.claims}`, Math.round(r.tokensPerClaim), r.secondsPerClaim.toFixed(1),
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
