import { datasetLabel, groupLabel } from '../group-key';
import type { RunProtocol } from '../../runs/run-manifest';
import type { GroupReport, RunReport } from '../report-types';
import { duration, fixed, usd, withCI } from './format';

/**
 * The report's tables as header + rows of plain strings, shared by the Markdown and HTML renderers
 * (each escapes and lays them out its own way).
 */
export interface Table {
  header: string[];
  rows: string[][];
}

/** The manifest's prompt versions and those the verdicts recorded. */
function runPromptVersions(report: RunReport): string[] {
  return [...new Set([...report.manifest.promptVersions, ...report.groups.flatMap((g) => g.promptVersions)])].sort();
}

export function manifestTable(report: RunReport): Table {
  const { manifest } = report;
  const { config } = manifest;
  const budget = [config.budget.usd !== undefined ? usd(config.budget.usd) : '', config.budget.tokens !== undefined ? `${config.budget.tokens} tokens` : '']
    .filter(Boolean)
    .join(', ');
  return {
    header: ['field', 'value'],
    rows: [
      ['run', manifest.runId],
      ['status', manifest.status],
      ['LLM provider', manifest.llmProvider],
      ['git commit', manifest.gitCommit],
      ['methods', config.methods.join(', ')],
      ['models', config.models.join(', ')],
      ['model ids', manifest.modelIds.join(', ')],
      ['prompt versions', runPromptVersions(report).join(', ') || '–'],
      ['seed', String(config.seed)],
      ['protocol', report.protocol],
      ['ordered', String(config.ordered)],
      ['concurrency', String(config.concurrency)],
      ['budget', budget || 'none'],
      ['parameters', JSON.stringify(config.parameters)],
      ['created', manifest.createdAt],
      ['updated', manifest.updatedAt],
      ['report generated', report.generatedAt],
    ],
  };
}

function sampleOf(dataset: RunReport['manifest']['config']['datasets'][number]): string {
  if (dataset.stratify) return `${dataset.stratify.perValue} per ${dataset.stratify.field}`;
  return dataset.sample === undefined ? 'all' : String(dataset.sample);
}

export function datasetsTable(report: RunReport): Table {
  const { config, datasetHashes } = report.manifest;
  return {
    header: ['dataset', 'file', 'format', 'sample', 'sha256'],
    rows: config.datasets.map((d) => [d.name, d.file, d.format, sampleOf(d), d.sha256 ?? datasetHashes[d.file] ?? datasetHashes[d.name] ?? '–']),
  };
}

/** Groups without a single scored claim have no meaningful metrics (shown as –). */
export function isScored(group: GroupReport): boolean {
  return group.counts.scored > 0;
}

/** Under `protocol: paper` the papers' rounded macro/weighted F1 come first, and claims the protocol leaves out are counted. */
export function summaryTable(groups: readonly GroupReport[], protocol: RunProtocol = 'verity'): Table {
  const paper = protocol === 'paper';
  return {
    header: [
      'dataset', 'method', 'model', 'claims (n)', 'repeats (k)', 'scored', 'invalid', 'failed',
      ...(paper ? ['excluded', 'paper headline', 'macro-F1 (paper)', 'weighted-F1 (paper)'] : []),
      'accuracy [95% CI]', 'macro-F1 [95% CI]', 'weighted-F1 [95% CI]',
    ],
    rows: groups.map((g) => [
      datasetLabel(g.key),
      g.key.method,
      g.key.model,
      String(g.counts.distinctClaims),
      String(g.counts.repeats),
      String(g.counts.scored),
      String(g.counts.invalid),
      String(g.counts.failed),
      ...(paper ? [String(g.counts.excluded), isScored(g) && g.paper ? `${g.paper.headline.metric}: ${g.paper.headline.value}` : '–', ...[g.paper?.macroF1 ?? null, g.paper?.weightedF1 ?? null].map((v) => (isScored(g) ? fixed(v, 2) : '–'))] : []),
      ...[g.accuracy, g.macroF1, g.weightedF1].map((ci) => (isScored(g) ? withCI(ci) : '–')),
    ]),
  };
}

export function conventionsTable(report: RunReport): Table {
  return { header: ['metric', `convention (protocol: ${report.protocol})`], rows: report.conventions.map((c) => [c.metric, c.convention]) };
}

export function costTable(groups: readonly GroupReport[]): Table {
  return {
    header: ['group', 'LLM calls / claim', 'cached / claim', 'tool calls / claim', 'tokens / claim', 'cost / claim', 'total cost', 'p50', 'p90', 'p99'],
    rows: groups.map((g) => [
      groupLabel(g.key),
      fixed(g.usage.mean.llmCalls, 2),
      fixed(g.cachedLlmCallsPerClaim, 2),
      fixed(g.usage.mean.toolCalls, 2),
      fixed(g.usage.mean.totalTokens, 0),
      usd(g.usage.mean.costUsd),
      usd(g.usage.total.costUsd),
      duration(g.latencyMs.p50),
      duration(g.latencyMs.p90),
      duration(g.latencyMs.p99),
    ]),
  };
}

export function perClassTable(group: GroupReport): Table {
  return {
    header: ['class', 'precision', 'recall', 'F1', 'support'],
    rows: group.perClass.map((c) => [c.label, fixed(c.precision), fixed(c.recall), fixed(c.f1), String(c.support)]),
  };
}

/** The confusion matrix's column of claims without a label: an unparseable answer or a failed verification. */
export const INVALID_OR_FAILED = 'invalid/failed';

export function confusionTable(group: GroupReport): Table {
  const { labels, counts, invalid } = group.confusion;
  return {
    header: ['gold \\ predicted', ...labels, INVALID_OR_FAILED],
    rows: labels.map((label, i) => [label, ...(counts[i] ?? []).map(String), String(invalid[i] ?? 0)]),
  };
}

export function failuresTable(group: GroupReport): Table {
  return { header: ['claim', 'outcome', 'reason'], rows: group.failures.map((f) => [f.claimId, f.outcome, f.reason]) };
}
