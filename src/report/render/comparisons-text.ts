import { COMPARISON_NOTE, type RunComparisons } from '../paired-comparisons';
import { answerText, comparisonNotes, comparisonsTable, sideLabel } from './comparisons-table';
import { markdownTable } from './markdown';

/** Claims listed per comparison in the text output (--json has them all). */
export const MAX_LISTED_DISAGREEMENTS = 20;

/** `verity compare` for humans: the comparisons as a table, their notes, then the claims each pair disagrees on. */
export function renderComparisonsText(comparisons: RunComparisons): string {
  const baseline = comparisons.baseline ? ` against ${comparisons.baseline.kind} ${comparisons.baseline.value}` : '';
  const lines = [`paired comparisons of run ${comparisons.runId}${baseline}`, COMPARISON_NOTE];
  if (comparisons.comparisons.length > 0) lines.push('', markdownTable(comparisonsTable(comparisons)));
  const notes = comparisonNotes(comparisons);
  if (notes.length > 0) lines.push('', ...notes.map((note) => `note: ${note}`));
  for (const c of comparisons.comparisons) {
    if (c.disagreements.length === 0) continue;
    const discordant = c.disagreements.filter((d) => d.discordant).length;
    lines.push(
      '',
      `${c.dataset} · ${sideLabel(c.a, c.varies)} (A) vs ${sideLabel(c.b, c.varies)} (B): ${c.disagreements.length} claims answered differently, ${discordant} right on one side only`,
      markdownTable({
        header: ['claim', 'gold', 'A', 'B'],
        rows: c.disagreements.slice(0, MAX_LISTED_DISAGREEMENTS).map((d) => [d.claimId, d.gold ?? '–', answerText(d.a), answerText(d.b)]),
      }),
    );
    if (c.disagreements.length > MAX_LISTED_DISAGREEMENTS) lines.push(`… ${c.disagreements.length - MAX_LISTED_DISAGREEMENTS} more (use --json for all)`);
  }
  return `${lines.join('\n')}\n`;
}
