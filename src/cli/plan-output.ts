import { capabilitiesOf } from '../llm/capabilities';
import { formatDuration } from '../plan/batch-wall-time';
import { formatUsd, type Plan, type PlanRow, type Range } from '../plan/plan-figures';

function range(value: Range | undefined, format: (n: number) => string = String): string {
  if (!value) return '--';
  return value.low === value.high ? format(value.low) : `${format(value.low)}–${format(value.high)}`;
}

function sourceOf(row: PlanRow): string {
  switch (row.source.kind) {
    case 'earlier-runs':
      return `earlier runs (${row.source.verdicts} verdicts)`;
    case 'pilot':
      return `pilot (${row.source.claims} claims on the simulator${row.source.failed > 0 ? `, ${row.source.failed} failed` : ''})`;
    case 'none':
      return `no estimate: ${row.source.reason}`;
  }
}

/** The plan as a table: one line per (dataset × method × model), then the totals. */
export function formatPlan(plan: Plan): string {
  const header = ['dataset', 'method', 'model', 'claims', 'LLM calls', 'tokens in', 'tokens out', 'USD', 'USD batch', 'from'];
  const usd = (n: number) => `$${formatUsd(n)}`;
  const lines = plan.rows.map((row) => [
    row.dataset,
    row.method,
    row.model,
    String(row.claims),
    range(row.llmCalls),
    range(row.promptTokens),
    range(row.completionTokens),
    row.usd ? range(row.usd, usd) : row.source.kind === 'none' ? '--' : 'no price',
    row.batchUsd ? range(row.batchUsd, usd) : row.source.kind === 'none' ? '--' : 'no price',
    sourceOf(row),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const render = (cells: string[]) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ');
  return [
    `plan of run ${plan.runId} (ranges: low–high)`,
    render(header),
    ...lines.map(render),
    `total: ${range(plan.llmCalls)} LLM calls, ${plan.usd ? range(plan.usd, usd) : 'USD unknown (a model has no price or no estimate)'}`,
    `with batch: true: ${plan.batchUsd ? range(plan.batchUsd, usd) : 'USD unknown'}, wall time ${plan.batchWallMs ? range(plan.batchWallMs, formatDuration) : 'unknown'} (one batch turnaround per LLM call of a claim, claims in rounds of the sweep's concurrency)`,
    ...(plan.rows.some((row) => row.source.kind === 'pilot') ? ["pilot tokens are the simulator's answers: a real model's may be longer"] : []),
    ...reasoningAllowanceLines(plan),
    'verdicts already stored for this run are reused at no cost',
  ].join('\n');
}

/** The reasoning models of the plan and their allowance (capabilities.ts): their reasoning is billed as output. */
function reasoningAllowanceLines(plan: Plan): string[] {
  const models = [...new Set(plan.rows.map((row) => row.model))].map((model) => ({ model, capabilities: capabilitiesOf(model) })).filter(({ capabilities }) => capabilities.reasoning);
  if (models.length === 0) return [];
  const allowances = models.map(({ model, capabilities }) => `${model} × ${capabilities.reasoningMultiplier} (${capabilities.tokenParameter})`).join(', ');
  const notSent = models.filter(({ capabilities }) => capabilities.omittedParameters.includes('temperature')).map(({ model }) => model);
  return [
    `reasoning allowance (task cap × it, VERITY_REASONING_MULTIPLIERS): ${allowances}; reasoning tokens are billed as output and may exceed the pilot's tokens out`,
    ...(notSent.length > 0 ? [`temperature: not sent to ${notSent.join(', ')} (the model refuses it; its default applies)`] : []),
  ];
}
