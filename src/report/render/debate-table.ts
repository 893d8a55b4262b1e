import { groupLabel } from '../group-key';
import type { GroupReport } from '../report-types';
import type { Table } from './report-tables';

/** Groups whose verdicts record who decided the debate (Tool-MAD). */
export function debatedGroups(groups: readonly GroupReport[]): GroupReport[] {
  return groups.filter((g) => g.debates !== null);
}

/** Share of debates decided by a gated consensus vs by the judge, per group. */
export function debateTable(groups: readonly GroupReport[]): Table {
  return {
    header: ['group', 'debates', 'consensus', 'judge', 'judge share'],
    rows: debatedGroups(groups).map((g) => {
      const { consensus, judge, judgeShare } = g.debates!;
      return [groupLabel(g.key), String(consensus + judge), String(consensus), String(judge), `${(100 * judgeShare).toFixed(1)}%`];
    }),
  };
}

export const DEBATE_NOTE = 'Debates (Tool-MAD): decided by a consensus that passed the stability gates, or by the judge after the last round.';
