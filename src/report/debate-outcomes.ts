import type { ClaimRow, DebateOutcomes } from './report-types';

/** Who decided the group's debates (Tool-MAD's trace `decidedBy`); null when no verdict records it. */
export function debateOutcomes(verdicts: readonly Pick<ClaimRow, 'decidedBy'>[]): DebateOutcomes | null {
  const consensus = verdicts.filter((row) => row.decidedBy === 'consensus').length;
  const judge = verdicts.filter((row) => row.decidedBy === 'judge').length;
  if (consensus + judge === 0) return null;
  return { consensus, judge, judgeShare: judge / (consensus + judge) };
}
