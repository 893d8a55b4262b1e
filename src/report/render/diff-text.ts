import type { RunDiff } from '../diff-runs';
import { groupLabel } from '../group-key';
import { fixed, signed, signedUsd } from './format';
import { markdownTable } from './markdown';

export const MAX_LISTED_CHANGES = 50;

function groupDeltaRows(diff: RunDiff): string[][] {
  return diff.groups.map((g) => {
    if (!g.delta) return [groupLabel(g.key), g.a ? 'only in A' : 'only in B', '', '', '', '', ''];
    return [
      groupLabel(g.key),
      `${g.a?.claims ?? 0} → ${g.b?.claims ?? 0}`,
      `${fixed(g.a?.accuracy ?? null)} → ${fixed(g.b?.accuracy ?? null)} (${signed(g.delta.accuracy)})`,
      `${fixed(g.a?.macroF1 ?? null)} → ${fixed(g.b?.macroF1 ?? null)} (${signed(g.delta.macroF1)})`,
      signed(g.delta.weightedF1),
      signedUsd(g.delta.costPerClaimUsd),
      signed(g.delta.llmCallsPerClaim, 2),
    ];
  });
}

function changeRows(diff: RunDiff): string[][] {
  return diff.changes.slice(0, MAX_LISTED_CHANGES).map((c) => [
    groupLabel(c),
    c.claimId,
    c.kind,
    `${c.predictedA ?? '–'} → ${c.predictedB ?? '–'}`,
    c.became ?? '',
    signedUsd(c.costDeltaUsd),
    signed(c.llmCallsDelta, 0),
  ]);
}

/** `verity diff` for humans: a summary, metric deltas per group and the changed claims (as Markdown tables). */
export function renderDiffText(diff: RunDiff): string {
  const s = diff.summary;
  const lines = [
    `diff ${diff.runA} → ${diff.runB}`,
    `claims: ${s['label-changed']} label changed, ${s.becameCorrect} became correct, ${s.becameIncorrect} became incorrect, ` +
      `${s.appeared} appeared, ${s.disappeared} disappeared, ${s.unchanged} unchanged`,
    `cost ${signedUsd(s.costDeltaUsd)}, LLM calls ${signed(s.llmCallsDelta, 0)}, tool calls ${signed(s.toolCallsDelta, 0)}`,
    '',
    markdownTable({ header: ['group', 'claims', 'accuracy', 'macro-F1', 'Δ weighted-F1', 'Δ cost / claim', 'Δ LLM calls / claim'], rows: groupDeltaRows(diff) }),
  ];
  if (diff.changes.length > 0) {
    lines.push('', markdownTable({ header: ['group', 'claim', 'change', 'label', 'became', 'Δ cost', 'Δ LLM calls'], rows: changeRows(diff) }));
    if (diff.changes.length > MAX_LISTED_CHANGES) lines.push(`… ${diff.changes.length - MAX_LISTED_CHANGES} more changed claims (use --json for all)`);
  }
  return `${lines.join('\n')}\n`;
}
