import { claimKeyId, compareGroupKeys, groupKeyId } from './group-key';
import type { ClaimRow, GroupKey, GroupReport, RunReport } from './report-types';

export type ClaimChangeKind = 'appeared' | 'disappeared' | 'label-changed' | 'unchanged';

export interface ClaimChange extends GroupKey {
  claimId: string;
  kind: ClaimChangeKind;
  predictedA: string | null;
  predictedB: string | null;
  correctA: boolean | null;
  correctB: boolean | null;
  /** Set when the claim is scored in both runs and its correctness flipped. */
  became: 'correct' | 'incorrect' | null;
  costDeltaUsd: number;
  llmCallsDelta: number;
  toolCallsDelta: number;
}

export interface GroupMetricsSummary {
  claims: number;
  /** Null for a group without a scored claim (the report shows –). */
  accuracy: number | null;
  macroF1: number | null;
  weightedF1: number | null;
  costPerClaimUsd: number;
  llmCallsPerClaim: number;
  toolCallsPerClaim: number;
}

export interface GroupDelta {
  key: GroupKey;
  a: GroupMetricsSummary | null;
  b: GroupMetricsSummary | null;
  /** b − a; null when the group is missing from either run. */
  delta: GroupMetricsSummary | null;
}

export interface RunDiff {
  runA: string;
  runB: string;
  summary: Record<ClaimChangeKind | 'becameCorrect' | 'becameIncorrect', number> & { costDeltaUsd: number; llmCallsDelta: number; toolCallsDelta: number };
  /** Claims that appeared, disappeared, changed label or flipped correctness. */
  changes: ClaimChange[];
  groups: GroupDelta[];
}

/** The prediction as shown in a diff: the raw label of a verdict, or "failed". */
function shownPrediction(row: ClaimRow | undefined): string | null {
  if (!row) return null;
  return row.status === 'failed' ? 'failed' : row.predictedRaw;
}

function changeKind(a: ClaimRow | undefined, b: ClaimRow | undefined): ClaimChangeKind {
  if (!a) return 'appeared';
  if (!b) return 'disappeared';
  return shownPrediction(a) === shownPrediction(b) ? 'unchanged' : 'label-changed';
}

function became(a: ClaimRow | undefined, b: ClaimRow | undefined): ClaimChange['became'] {
  if (a?.correct == null || b?.correct == null || a.correct === b.correct) return null;
  return b.correct ? 'correct' : 'incorrect';
}

function claimChange(a: ClaimRow | undefined, b: ClaimRow | undefined): ClaimChange {
  const row = (b ?? a) as ClaimRow;
  return {
    dataset: row.dataset,
    method: row.method,
    model: row.model,
    claimId: row.claimId,
    kind: changeKind(a, b),
    predictedA: shownPrediction(a),
    predictedB: shownPrediction(b),
    correctA: a?.correct ?? null,
    correctB: b?.correct ?? null,
    became: became(a, b),
    costDeltaUsd: (b?.costUsd ?? 0) - (a?.costUsd ?? 0),
    llmCallsDelta: (b?.llmCalls ?? 0) - (a?.llmCalls ?? 0),
    toolCallsDelta: (b?.toolCalls ?? 0) - (a?.toolCalls ?? 0),
  };
}

function summarize(group: GroupReport | undefined): GroupMetricsSummary | null {
  if (!group) return null;
  const scored = group.counts.scored > 0;
  return {
    claims: group.counts.claims,
    accuracy: scored ? group.accuracy.estimate : null,
    macroF1: scored ? group.macroF1.estimate : null,
    weightedF1: scored ? group.weightedF1.estimate : null,
    costPerClaimUsd: group.usage.mean.costUsd,
    llmCallsPerClaim: group.usage.mean.llmCalls,
    toolCallsPerClaim: group.usage.mean.toolCalls,
  };
}

function subtract(a: GroupMetricsSummary, b: GroupMetricsSummary): GroupMetricsSummary {
  const fields = Object.keys(a) as (keyof GroupMetricsSummary)[];
  return Object.fromEntries(fields.map((field) => [field, a[field] === null || b[field] === null ? null : b[field] - a[field]])) as unknown as GroupMetricsSummary;
}

function groupDeltas(a: RunReport, b: RunReport): GroupDelta[] {
  const groupsA = new Map(a.groups.map((group) => [groupKeyId(group.key), group]));
  const groupsB = new Map(b.groups.map((group) => [groupKeyId(group.key), group]));
  const keys = new Map([...a.groups, ...b.groups].map((group) => [groupKeyId(group.key), group.key]));
  return [...keys.entries()]
    .sort(([, x], [, y]) => compareGroupKeys(x, y))
    .map(([id, key]) => {
      const summaryA = summarize(groupsA.get(id));
      const summaryB = summarize(groupsB.get(id));
      return { key, a: summaryA, b: summaryB, delta: summaryA && summaryB ? subtract(summaryA, summaryB) : null };
    });
}

function summaryOf(all: readonly ClaimChange[]): RunDiff['summary'] {
  const count = (predicate: (change: ClaimChange) => boolean): number => all.filter(predicate).length;
  const total = (field: 'costDeltaUsd' | 'llmCallsDelta' | 'toolCallsDelta'): number => all.reduce((sum, change) => sum + change[field], 0);
  return {
    appeared: count((c) => c.kind === 'appeared'),
    disappeared: count((c) => c.kind === 'disappeared'),
    'label-changed': count((c) => c.kind === 'label-changed'),
    unchanged: count((c) => c.kind === 'unchanged'),
    becameCorrect: count((c) => c.became === 'correct'),
    becameIncorrect: count((c) => c.became === 'incorrect'),
    costDeltaUsd: total('costDeltaUsd'),
    llmCallsDelta: total('llmCallsDelta'),
    toolCallsDelta: total('toolCallsDelta'),
  };
}

/** Per-claim and per-group differences from run A to run B, matched by dataset, method, model and claim id. Pure. */
export function diffRuns(a: RunReport, b: RunReport): RunDiff {
  const rowsA = new Map(a.claims.map((row) => [claimKeyId(row), row]));
  const rowsB = new Map(b.claims.map((row) => [claimKeyId(row), row]));
  const ids = [...new Set([...rowsA.keys(), ...rowsB.keys()])].sort();
  const all = ids.map((id) => claimChange(rowsA.get(id), rowsB.get(id)));
  return {
    runA: a.runId,
    runB: b.runId,
    summary: summaryOf(all),
    changes: all.filter((change) => change.kind !== 'unchanged' || change.became !== null),
    groups: groupDeltas(a, b),
  };
}
